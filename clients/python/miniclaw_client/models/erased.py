from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Erased")



@_attrs_define
class Erased:
    """ What an erase removed: counts only.

        Attributes:
            conversations (int):
            imports (int):
            jobs (int):
            kept_answers (int):
            keys_revoked (int):
            log_entries_scrubbed (int):
            memories (int):
            memory_versions (int):
            messages (int):
            tombstones (int):
            webhook_deliveries (int):
     """

    conversations: int
    imports: int
    jobs: int
    kept_answers: int
    keys_revoked: int
    log_entries_scrubbed: int
    memories: int
    memory_versions: int
    messages: int
    tombstones: int
    webhook_deliveries: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        conversations = self.conversations

        imports = self.imports

        jobs = self.jobs

        kept_answers = self.kept_answers

        keys_revoked = self.keys_revoked

        log_entries_scrubbed = self.log_entries_scrubbed

        memories = self.memories

        memory_versions = self.memory_versions

        messages = self.messages

        tombstones = self.tombstones

        webhook_deliveries = self.webhook_deliveries


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "conversations": conversations,
            "imports": imports,
            "jobs": jobs,
            "kept_answers": kept_answers,
            "keys_revoked": keys_revoked,
            "log_entries_scrubbed": log_entries_scrubbed,
            "memories": memories,
            "memory_versions": memory_versions,
            "messages": messages,
            "tombstones": tombstones,
            "webhook_deliveries": webhook_deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        conversations = d.pop("conversations")

        imports = d.pop("imports")

        jobs = d.pop("jobs")

        kept_answers = d.pop("kept_answers")

        keys_revoked = d.pop("keys_revoked")

        log_entries_scrubbed = d.pop("log_entries_scrubbed")

        memories = d.pop("memories")

        memory_versions = d.pop("memory_versions")

        messages = d.pop("messages")

        tombstones = d.pop("tombstones")

        webhook_deliveries = d.pop("webhook_deliveries")

        erased = cls(
            conversations=conversations,
            imports=imports,
            jobs=jobs,
            kept_answers=kept_answers,
            keys_revoked=keys_revoked,
            log_entries_scrubbed=log_entries_scrubbed,
            memories=memories,
            memory_versions=memory_versions,
            messages=messages,
            tombstones=tombstones,
            webhook_deliveries=webhook_deliveries,
        )


        erased.additional_properties = d
        return erased

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
