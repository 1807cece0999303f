//! The bottom of the house: what every other crate may use and which uses none of them. Typed
//! ids, the closed vocabularies, the words of a text, who acts (`Actor`, `Origin`), the clock and
//! the one domain `Error`.

pub mod actor;
pub mod clock;
pub mod error;
pub mod ids;
pub mod text;
pub mod vocabulary;

pub use error::{Error, Result};
