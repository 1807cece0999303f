from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cluster import Cluster
  from ..models.edge import Edge
  from ..models.node import Node





T = TypeVar("T", bound="BrainGraph")



@_attrs_define
class BrainGraph:
    """ An agent's brain graph.

        Attributes:
            clusters (list[Cluster]):
            edges (list[Edge]):
            k (int):
            model (str): The embedding model of the vectors (memories embedded by another model are left out).
            nodes (list[Node]):
            seed (int):
            variances (list[float]): The variance along each of the three components.
     """

    clusters: list[Cluster]
    edges: list[Edge]
    k: int
    model: str
    nodes: list[Node]
    seed: int
    variances: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cluster import Cluster # noqa: PLC0415
        from ..models.edge import Edge # noqa: PLC0415
        from ..models.node import Node # noqa: PLC0415
        clusters = []
        for clusters_item_data in self.clusters:
            clusters_item = clusters_item_data.to_dict()
            clusters.append(clusters_item)



        edges = []
        for edges_item_data in self.edges:
            edges_item = edges_item_data.to_dict()
            edges.append(edges_item)



        k = self.k

        model = self.model

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)



        seed = self.seed

        variances = self.variances




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clusters": clusters,
            "edges": edges,
            "k": k,
            "model": model,
            "nodes": nodes,
            "seed": seed,
            "variances": variances,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cluster import Cluster # noqa: PLC0415
        from ..models.edge import Edge # noqa: PLC0415
        from ..models.node import Node # noqa: PLC0415
        d = dict(src_dict)
        clusters = []
        _clusters = d.pop("clusters")
        for clusters_item_data in (_clusters):
            clusters_item = Cluster.from_dict(clusters_item_data)



            clusters.append(clusters_item)


        edges = []
        _edges = d.pop("edges")
        for edges_item_data in (_edges):
            edges_item = Edge.from_dict(edges_item_data)



            edges.append(edges_item)


        k = d.pop("k")

        model = d.pop("model")

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in (_nodes):
            nodes_item = Node.from_dict(nodes_item_data)



            nodes.append(nodes_item)


        seed = d.pop("seed")

        variances = cast(list[float], d.pop("variances"))


        brain_graph = cls(
            clusters=clusters,
            edges=edges,
            k=k,
            model=model,
            nodes=nodes,
            seed=seed,
            variances=variances,
        )


        brain_graph.additional_properties = d
        return brain_graph

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
