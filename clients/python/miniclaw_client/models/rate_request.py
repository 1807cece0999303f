from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RateRequest")



@_attrs_define
class RateRequest:
    """ 
        Attributes:
            rating (int): 1–5.
            review (None | str | Unset): An optional review, at most 2,000 characters.
     """

    rating: int
    review: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rating = self.rating

        review: None | str | Unset
        if isinstance(self.review, Unset):
            review = UNSET
        else:
            review = self.review


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rating": rating,
        })
        if review is not UNSET:
            field_dict["review"] = review

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = d.pop("rating")

        def _parse_review(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review = _parse_review(d.pop("review", UNSET))


        rate_request = cls(
            rating=rating,
            review=review,
        )

        return rate_request

