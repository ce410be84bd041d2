//! `?page&pageSize` of every list, read one way: pages from 1, one default page size
//! ([`DEFAULT_PAGE_SIZE`], the spec's), a size capped at [`MAX_PAGE_SIZE`], and a page
//! number past [`MAX_PAGE`] refused with a 400 (an enormous one once overflowed the
//! offset into a server error). Every list answers a [`Page`].

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::{Deserialize, Serialize};

use crate::envelope::QueryParams;
use crate::error::{Error, Result};
use crate::i18n::Msg;

/// Spec: "Default user list page size 10"; every list uses it.
pub const DEFAULT_PAGE_SIZE: i64 = 10;
pub const MAX_PAGE_SIZE: i64 = 100;
pub const MAX_PAGE: i64 = 1_000_000;

/// The page a list request asks for; an extractor reading `page` and `pageSize` from
/// the query (other parameters are left to the handler's own query type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: i64,
    pub page_size: i64,
}

impl Paging {
    pub fn parse(page: Option<i64>, page_size: Option<i64>) -> Result<Self> {
        let page = page.unwrap_or(1).max(1);
        if page > MAX_PAGE {
            return Err(Error::bad_request(Msg::PageTooLarge));
        }
        Ok(Self {
            page,
            page_size: page_size
                .unwrap_or(DEFAULT_PAGE_SIZE)
                .clamp(1, MAX_PAGE_SIZE),
        })
    }

    /// Rows to skip.
    pub fn offset(self) -> i64 {
        (self.page - 1) * self.page_size
    }

    /// The SQL tail selecting this page (both numbers are bounded integers).
    pub fn limit_offset(self) -> String {
        format!("LIMIT {} OFFSET {}", self.page_size, self.offset())
    }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct PageParams {
    /// The page, from 1 (default 1; a page past 1 000 000 is refused with a 400).
    #[param(maximum = 1_000_000)]
    page: Option<i64>,
    /// Items per page: default 10, brought into 1–100.
    page_size: Option<i64>,
}

/// Every list documents `page` and `pageSize` the one way it reads them.
impl utoipa::IntoParams for Paging {
    fn into_params(
        parameter_in_provider: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        PageParams::into_params(parameter_in_provider)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Paging {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let QueryParams(params) =
            QueryParams::<PageParams>::from_request_parts(parts, state).await?;
        Self::parse(params.page, params.page_size)
    }
}

/// One page of a list: `{ items, total, page, pageSize }`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Rows in the whole list.
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

impl<T> Page<T> {
    pub fn new(items: Vec<T>, total: i64, paging: Paging) -> Self {
        Self {
            items,
            total,
            page: paging.page,
            page_size: paging.page_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_start_at_one_and_sizes_are_capped() {
        let paging = Paging::parse(Some(0), Some(10_000)).unwrap();
        assert_eq!(
            paging,
            Paging {
                page: 1,
                page_size: 100
            }
        );
        assert_eq!(Paging::parse(Some(3), Some(10)).unwrap().offset(), 20);
        assert_eq!(
            Paging::parse(Some(3), Some(10)).unwrap().limit_offset(),
            "LIMIT 10 OFFSET 20"
        );
    }

    #[test]
    fn every_list_defaults_to_the_specs_page_size_of_ten() {
        assert_eq!(Paging::parse(None, None).unwrap().page_size, 10);
    }

    #[test]
    fn a_page_past_the_last_possible_is_a_bad_request_not_an_overflow() {
        assert!(matches!(
            Paging::parse(Some(i64::MAX), Some(100)),
            Err(Error::BadRequest(_))
        ));
        let last = Paging::parse(Some(MAX_PAGE), Some(MAX_PAGE_SIZE)).unwrap();
        assert!(last.offset() > 0);
    }

    #[test]
    fn a_page_serialises_with_the_api_field_names() {
        let page = Page::new(vec![1, 2], 7, Paging::parse(Some(2), Some(2)).unwrap());
        assert_eq!(
            serde_json::to_value(page).unwrap(),
            serde_json::json!({ "items": [1, 2], "total": 7, "page": 2, "pageSize": 2 })
        );
    }
}
