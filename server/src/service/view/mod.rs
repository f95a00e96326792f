//! View data: what a page needs to draw itself, built from the definitions and the quote on
//! every request. Position, step statuses and which steps are clickable are derived here from
//! the answers; nothing about position is stored.

mod calls;
mod data;
mod documents;
mod forms;
mod input;
mod payment;
mod products;
mod shared;
mod shell;

pub use calls::*;
pub use data::*;
pub use documents::*;
pub use forms::*;
pub use input::*;
pub use payment::*;
pub use products::*;
pub use shared::*;
pub use shell::*;

#[cfg(test)]
mod tests {
    use super::clock_text;

    /// owner-payment.md §1 Sales hours: "Mon-Fri 8am-6pm (one brand: 8.30am-6pm), Sat 9am-1pm".
    #[test]
    fn sales_hours_read_as_the_spec_writes_them() {
        assert_eq!(clock_text("08:00", "en-GB"), "8am");
        assert_eq!(clock_text("08:30", "en-GB"), "8.30am");
        assert_eq!(clock_text("18:00", "en-GB"), "6pm");
        assert_eq!(clock_text("13:00", "en-GB"), "1pm");
        assert_eq!(clock_text("12:00", "en-GB"), "12pm");
        assert_eq!(clock_text("00:15", "en-GB"), "12.15am");
        // French reads the 24-hour clock.
        assert_eq!(clock_text("08:00", "fr-FR"), "8h");
        assert_eq!(clock_text("08:30", "fr-FR"), "8h30");
        assert_eq!(clock_text("18:00", "fr-FR"), "18h");
    }
}
