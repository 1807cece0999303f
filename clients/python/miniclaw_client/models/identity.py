from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.domain_proof import DomainProof
  from ..models.profile import Profile





T = TypeVar("T", bound="Identity")



@_attrs_define
class Identity:
    """ An agent's identity as the API shows it.

        Attributes:
            profile (Profile): What the registration file says beyond the agent's settings.
            registration_url (str): Where this platform serves the registration file (public once registration is
                requested).
            stalled (bool): Pending, but its job gave up retrying (the node stayed unreachable for about a day):
                requesting the registration again resumes it where it stopped, without a second
                registration.
            status (str): `none` (never requested), `pending` (the job is at work or retrying), `registered`, or
                `failed` (see `reason`).
            agent_registry (None | str | Unset): `eip155:<chain id>:<registry address>`.
            agent_uri (None | str | Unset): The URI registered on chain.
            chain_id (int | None | Unset):
            domain_proof (DomainProof | None | Unset):
            erc8004_agent_id (int | None | Unset): The registry's agentId (its ERC-721 token id; ids start at 0), not
                miniclaw's agent id.
            explorer_tx_url (None | str | Unset): The transaction on a block explorer, for the chains miniclaw knows.
            owner (None | str | Unset): The address owning the identity token (the agent's wallet, or the sponsor wallet).
            reason (None | str | Unset): Why it failed; while pending, the last transient problem being retried.
            registered_at (datetime.datetime | None | Unset):
            requested_at (datetime.datetime | None | Unset):
            tx_hash (None | str | Unset): The registration transaction.
     """

    profile: Profile
    registration_url: str
    stalled: bool
    status: str
    agent_registry: None | str | Unset = UNSET
    agent_uri: None | str | Unset = UNSET
    chain_id: int | None | Unset = UNSET
    domain_proof: DomainProof | None | Unset = UNSET
    erc8004_agent_id: int | None | Unset = UNSET
    explorer_tx_url: None | str | Unset = UNSET
    owner: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    registered_at: datetime.datetime | None | Unset = UNSET
    requested_at: datetime.datetime | None | Unset = UNSET
    tx_hash: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.domain_proof import DomainProof # noqa: PLC0415
        from ..models.profile import Profile # noqa: PLC0415
        profile = self.profile.to_dict()

        registration_url = self.registration_url

        stalled = self.stalled

        status = self.status

        agent_registry: None | str | Unset
        if isinstance(self.agent_registry, Unset):
            agent_registry = UNSET
        else:
            agent_registry = self.agent_registry

        agent_uri: None | str | Unset
        if isinstance(self.agent_uri, Unset):
            agent_uri = UNSET
        else:
            agent_uri = self.agent_uri

        chain_id: int | None | Unset
        if isinstance(self.chain_id, Unset):
            chain_id = UNSET
        else:
            chain_id = self.chain_id

        domain_proof: dict[str, Any] | None | Unset
        if isinstance(self.domain_proof, Unset):
            domain_proof = UNSET
        elif isinstance(self.domain_proof, DomainProof):
            domain_proof = self.domain_proof.to_dict()
        else:
            domain_proof = self.domain_proof

        erc8004_agent_id: int | None | Unset
        if isinstance(self.erc8004_agent_id, Unset):
            erc8004_agent_id = UNSET
        else:
            erc8004_agent_id = self.erc8004_agent_id

        explorer_tx_url: None | str | Unset
        if isinstance(self.explorer_tx_url, Unset):
            explorer_tx_url = UNSET
        else:
            explorer_tx_url = self.explorer_tx_url

        owner: None | str | Unset
        if isinstance(self.owner, Unset):
            owner = UNSET
        else:
            owner = self.owner

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        registered_at: None | str | Unset
        if isinstance(self.registered_at, Unset):
            registered_at = UNSET
        elif isinstance(self.registered_at, datetime.datetime):
            registered_at = self.registered_at.isoformat()
        else:
            registered_at = self.registered_at

        requested_at: None | str | Unset
        if isinstance(self.requested_at, Unset):
            requested_at = UNSET
        elif isinstance(self.requested_at, datetime.datetime):
            requested_at = self.requested_at.isoformat()
        else:
            requested_at = self.requested_at

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "profile": profile,
            "registration_url": registration_url,
            "stalled": stalled,
            "status": status,
        })
        if agent_registry is not UNSET:
            field_dict["agent_registry"] = agent_registry
        if agent_uri is not UNSET:
            field_dict["agent_uri"] = agent_uri
        if chain_id is not UNSET:
            field_dict["chain_id"] = chain_id
        if domain_proof is not UNSET:
            field_dict["domain_proof"] = domain_proof
        if erc8004_agent_id is not UNSET:
            field_dict["erc8004_agent_id"] = erc8004_agent_id
        if explorer_tx_url is not UNSET:
            field_dict["explorer_tx_url"] = explorer_tx_url
        if owner is not UNSET:
            field_dict["owner"] = owner
        if reason is not UNSET:
            field_dict["reason"] = reason
        if registered_at is not UNSET:
            field_dict["registered_at"] = registered_at
        if requested_at is not UNSET:
            field_dict["requested_at"] = requested_at
        if tx_hash is not UNSET:
            field_dict["tx_hash"] = tx_hash

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.domain_proof import DomainProof # noqa: PLC0415
        from ..models.profile import Profile # noqa: PLC0415
        d = dict(src_dict)
        profile = Profile.from_dict(d.pop("profile"))




        registration_url = d.pop("registration_url")

        stalled = d.pop("stalled")

        status = d.pop("status")

        def _parse_agent_registry(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_registry = _parse_agent_registry(d.pop("agent_registry", UNSET))


        def _parse_agent_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_uri = _parse_agent_uri(d.pop("agent_uri", UNSET))


        def _parse_chain_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chain_id = _parse_chain_id(d.pop("chain_id", UNSET))


        def _parse_domain_proof(data: object) -> DomainProof | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                domain_proof_type_1 = DomainProof.from_dict(data)



                return domain_proof_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DomainProof | None | Unset, data)

        domain_proof = _parse_domain_proof(d.pop("domain_proof", UNSET))


        def _parse_erc8004_agent_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        erc8004_agent_id = _parse_erc8004_agent_id(d.pop("erc8004_agent_id", UNSET))


        def _parse_explorer_tx_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        explorer_tx_url = _parse_explorer_tx_url(d.pop("explorer_tx_url", UNSET))


        def _parse_owner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner = _parse_owner(d.pop("owner", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_registered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                registered_at_type_0 = datetime.datetime.fromisoformat(data)



                return registered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        registered_at = _parse_registered_at(d.pop("registered_at", UNSET))


        def _parse_requested_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                requested_at_type_0 = datetime.datetime.fromisoformat(data)



                return requested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        requested_at = _parse_requested_at(d.pop("requested_at", UNSET))


        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash", UNSET))


        identity = cls(
            profile=profile,
            registration_url=registration_url,
            stalled=stalled,
            status=status,
            agent_registry=agent_registry,
            agent_uri=agent_uri,
            chain_id=chain_id,
            domain_proof=domain_proof,
            erc8004_agent_id=erc8004_agent_id,
            explorer_tx_url=explorer_tx_url,
            owner=owner,
            reason=reason,
            registered_at=registered_at,
            requested_at=requested_at,
            tx_hash=tx_hash,
        )


        identity.additional_properties = d
        return identity

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
