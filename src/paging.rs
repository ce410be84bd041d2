//! `?page&pageSize` of every list, read one way: pages from 1, a page size capped at
//! [`MAX_PAGE_SIZE`], and a page number past [`MAX_PAGE`] refused with a 400 (an
//! enormous one once overflowed the offset into a server error).

use crate::error::{Error, Result};
use crate::i18n::Msg;

pub const MAX_PAGE_SIZE: i64 = 100;
pub const MAX_PAGE: i64 = 1_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: i64,
    pub page_size: i64,
}

impl Paging {
    /// The page asked for; `default_size` when no size is given.
    pub fn parse(page: Option<i64>, page_size: Option<i64>, default_size: i64) -> Result<Self> {
        let page = page.unwrap_or(1).max(1);
        if page > MAX_PAGE {
            return Err(Error::bad_request(Msg::PageTooLarge));
        }
        Ok(Self {
            page,
            page_size: page_size.unwrap_or(default_size).clamp(1, MAX_PAGE_SIZE),
        })
    }

    /// Rows to skip.
    pub fn offset(self) -> i64 {
        (self.page - 1) * self.page_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_start_at_one_and_sizes_are_capped() {
        let paging = Paging::parse(Some(0), Some(10_000), 20).unwrap();
        assert_eq!(
            paging,
            Paging {
                page: 1,
                page_size: 100
            }
        );
        assert_eq!(Paging::parse(None, None, 12).unwrap().page_size, 12);
        assert_eq!(Paging::parse(Some(3), Some(10), 20).unwrap().offset(), 20);
    }

    #[test]
    fn a_page_past_the_last_possible_is_a_bad_request_not_an_overflow() {
        assert!(matches!(
            Paging::parse(Some(i64::MAX), Some(100), 20),
            Err(Error::BadRequest(_))
        ));
        let last = Paging::parse(Some(MAX_PAGE), Some(MAX_PAGE_SIZE), 20).unwrap();
        assert!(last.offset() > 0);
    }
}
