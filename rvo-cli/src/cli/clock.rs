//! "Now" and "today" for a command: the system clock, through the profile's notion of today
//! (`Context::today`, the date in the Netherlands), unless a test program fixed the instant
//! (`rvo_cli::clock`); then today is that instant's date in the Netherlands too.

use chrono::{DateTime, NaiveDate, Utc};
use common::Context;
use rvo_cli::clock::fixed_now;

/// The current instant (when a report is received).
pub(crate) fn now() -> DateTime<Utc> {
    fixed_now().unwrap_or_else(Utc::now)
}

/// Today's date, the default peildatum.
pub(crate) fn today(ctx: &Context<'_>) -> NaiveDate {
    fixed_now().map_or_else(|| ctx.today(), common::calendar::dutch_date)
}
