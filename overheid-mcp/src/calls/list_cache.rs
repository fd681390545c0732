//! The lists completions are taken from, kept: per key (tool, arguments, principal) the data
//! and when it was read, a public list for [`PUBLIC_TTL`], the session's own for
//! [`PRIVATE_TTL`], at most [`MAX_ENTRIES`] lists. What a list is and how it is read is the
//! completions' business; this store only keeps, so the bridge holds it without knowing how a
//! list is read.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Mutex;

/// How long a public list (laws, schemes) is kept.
pub(crate) const PUBLIC_TTL: Duration = Duration::from_secs(300);
/// How long the session's own list (proposals, reports) is kept.
pub(crate) const PRIVATE_TTL: Duration = Duration::from_secs(30);
/// The most lists kept at once.
pub(crate) const MAX_ENTRIES: usize = 64;

/// The lists read so far: key → when, and the list's data.
#[derive(Default)]
pub(crate) struct ListCache {
    lists: Mutex<HashMap<String, (Instant, Arc<Value>)>>,
}

impl ListCache {
    /// The list kept under `key` if it is younger than `ttl`, else the one `read` gives, kept
    /// (the oldest dropped when [`MAX_ENTRIES`] are kept). When `read` gives none, `Null`,
    /// and nothing is kept: the next keystroke tries again.
    pub(crate) async fn get_or_read<F>(
        &self,
        key: String,
        ttl: Duration,
        read: impl FnOnce() -> F,
    ) -> Arc<Value>
    where
        F: Future<Output = Option<Value>>,
    {
        // Held while a list is read: one keystroke's burst starts one child, not one each.
        let mut lists = self.lists.lock().await;
        if let Some((at, data)) = lists.get(&key)
            && at.elapsed() < ttl
        {
            return Arc::clone(data);
        }
        let Some(data) = read().await else {
            return Arc::new(Value::Null);
        };
        let data = Arc::new(data);
        lists.retain(|_, (at, _)| at.elapsed() < PUBLIC_TTL);
        if lists.len() >= MAX_ENTRIES
            && let Some(oldest) = lists
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
        {
            lists.remove(&oldest);
        }
        lists.insert(key, (Instant::now(), Arc::clone(&data)));
        data
    }
}
