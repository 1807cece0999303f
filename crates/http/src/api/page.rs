//! Pagination of lists (docs/API-DESIGN.md): `?limit=` (1–500, default 50) and `?before=<id>`,
//! the cursor of the next page. A list fetches one row more than asked; when that row exists
//! the response carries the next page's cursor in the `X-Next-Before` header.

use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::extract::Json;
use crate::error::ApiError;

/// The response header naming the `before` of the next page (absent on the last page).
pub const NEXT_BEFORE: &str = "x-next-before";
/// The largest page.
pub const LIMIT_MAX: i64 = 500;
const LIMIT_DEFAULT: i64 = 50;

fn checked(limit: Option<i64>) -> Result<i64, ApiError> {
    let l = limit.unwrap_or(LIMIT_DEFAULT);
    if (1..=LIMIT_MAX).contains(&l) {
        Ok(l)
    } else {
        Err(ApiError::validation("limit", format!("limit must be between 1 and {LIMIT_MAX}")))
    }
}

/// A page of a list whose entries have ids.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The cursor of the page: the `X-Next-Before` of the previous one.
    pub before: Option<Uuid>,
}

impl Page {
    pub fn limit(&self) -> Result<i64, ApiError> {
        checked(self.limit)
    }

    /// How many rows to fetch: one more than the page holds, to learn whether another follows.
    pub fn fetch(&self) -> Result<i64, ApiError> {
        Ok(self.limit()? + 1)
    }
}

/// A page of a list of numbered versions (soul versions, a memory's history).
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VersionPage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// Versions older than this one: the `X-Next-Before` of the previous page.
    pub before: Option<i32>,
}

impl VersionPage {
    pub fn limit(&self) -> Result<i64, ApiError> {
        checked(self.limit)
    }

    pub fn fetch(&self) -> Result<i64, ApiError> {
        Ok(self.limit()? + 1)
    }
}

/// One page as JSON (an array, as every list), with `X-Next-Before` when another follows.
#[derive(Debug)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub next_before: Option<String>,
}

impl<T> Paged<T> {
    /// `rows` as fetched (`limit + 1` of them at most, newest first): the page is the first
    /// `limit`, and when a row remains, the next page starts before the last one kept.
    pub fn newest_first<K: ToString>(mut rows: Vec<T>, limit: i64, cursor: impl Fn(&T) -> K) -> Paged<T> {
        let limit = usize::try_from(limit).unwrap_or(0);
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next_before = if more { rows.last().map(|r| cursor(r).to_string()) } else { None };
        Paged { items: rows, next_before }
    }

    /// The same page listed oldest first (conversation messages, a memory's history): the
    /// pages still go back in time, each in reading order.
    pub fn chronological(mut self) -> Paged<T> {
        self.items.reverse();
        self
    }
}

impl<T: Serialize> IntoResponse for Paged<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.items).into_response();
        if let Some(v) = self.next_before.and_then(|c| HeaderValue::from_str(&c).ok()) {
            response.headers_mut().insert(HeaderName::from_static(NEXT_BEFORE), v);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_names_the_next_cursor_only_when_a_row_follows() {
        let full = Paged::newest_first(vec![9, 8, 7], 2, |n| *n);
        assert_eq!((full.items.as_slice(), full.next_before.as_deref()), (&[9, 8][..], Some("8")));
        let last = Paged::newest_first(vec![9, 8], 2, |n| *n);
        assert_eq!((last.items.as_slice(), last.next_before), (&[9, 8][..], None));
        let reading = Paged::newest_first(vec![9, 8, 7], 2, |n| *n).chronological();
        assert_eq!((reading.items.as_slice(), reading.next_before.as_deref()), (&[8, 9][..], Some("8")));
        assert!(Page { limit: Some(0), before: None }.limit().is_err());
        assert!(Page { limit: Some(501), before: None }.limit().is_err());
        assert_eq!(Page::default().fetch().unwrap(), 51);
    }
}
