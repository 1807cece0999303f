from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.analytics_memory_categories import AnalyticsMemoryCategories
  from ..models.llm_summary import LlmSummary
  from ..models.metrics import Metrics
  from ..models.point import Point





T = TypeVar("T", bound="Analytics")



@_attrs_define
class Analytics:
    """ The answer to "what happened between `from` and `to`".

        Attributes:
            from_ (datetime.datetime): The range, widened to whole hours (or days at day granularity), UTC.
            granularity (str): `hour` or `day`.
            llm (LlmSummary): Every model call of the range.
            memory_categories (AnalyticsMemoryCategories): The live memories of the agent (or tenant) now, by category.
            scope (str): `agent` or `tenant`.
            series (list[Point]): Every hour or day of the range, empty ones included.
            to (datetime.datetime):
            totals (Metrics): The metrics of a range (D1).
            agent_id (None | Unset | UUID):
     """

    from_: datetime.datetime
    granularity: str
    llm: LlmSummary
    memory_categories: AnalyticsMemoryCategories
    scope: str
    series: list[Point]
    to: datetime.datetime
    totals: Metrics
    agent_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.analytics_memory_categories import AnalyticsMemoryCategories # noqa: PLC0415
        from ..models.llm_summary import LlmSummary # noqa: PLC0415
        from ..models.metrics import Metrics # noqa: PLC0415
        from ..models.point import Point # noqa: PLC0415
        from_ = self.from_.isoformat()

        granularity = self.granularity

        llm = self.llm.to_dict()

        memory_categories = self.memory_categories.to_dict()

        scope = self.scope

        series = []
        for series_item_data in self.series:
            series_item = series_item_data.to_dict()
            series.append(series_item)



        to = self.to.isoformat()

        totals = self.totals.to_dict()

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "from": from_,
            "granularity": granularity,
            "llm": llm,
            "memory_categories": memory_categories,
            "scope": scope,
            "series": series,
            "to": to,
            "totals": totals,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analytics_memory_categories import AnalyticsMemoryCategories # noqa: PLC0415
        from ..models.llm_summary import LlmSummary # noqa: PLC0415
        from ..models.metrics import Metrics # noqa: PLC0415
        from ..models.point import Point # noqa: PLC0415
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))




        granularity = d.pop("granularity")

        llm = LlmSummary.from_dict(d.pop("llm"))




        memory_categories = AnalyticsMemoryCategories.from_dict(d.pop("memory_categories"))




        scope = d.pop("scope")

        series = []
        _series = d.pop("series")
        for series_item_data in (_series):
            series_item = Point.from_dict(series_item_data)



            series.append(series_item)


        to = datetime.datetime.fromisoformat(d.pop("to"))




        totals = Metrics.from_dict(d.pop("totals"))




        def _parse_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_1 = UUID(data)



                return agent_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        analytics = cls(
            from_=from_,
            granularity=granularity,
            llm=llm,
            memory_categories=memory_categories,
            scope=scope,
            series=series,
            to=to,
            totals=totals,
            agent_id=agent_id,
        )


        analytics.additional_properties = d
        return analytics

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
