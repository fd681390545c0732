//! Judging a task × variant from its sessions, counting tokens, and the Markdown tables.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tiktoken_rs::{cl100k_base_singleton, o200k_base_singleton};

use crate::tasks::Task;

/// Tokens of `text` in `o200k_base` and `cl100k_base`.
fn tokens(text: &str) -> (usize, usize) {
    (
        o200k_base_singleton().encode_ordinary(text).len(),
        cl100k_base_singleton().encode_ordinary(text).len(),
    )
}

fn texts(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
}

fn measure(texts: &[String]) -> Value {
    let (o200k, cl100k) = texts.iter().fold((0, 0), |(a, b), text| {
        let (x, y) = tokens(text);
        (a + x, b + y)
    });
    let bytes: usize = texts.iter().map(String::len).sum();
    json!({"bytes": bytes, "o200k": o200k, "cl100k": cl100k})
}

/// The answer of one question: the data itself, or jq applied to it (by the harness, untimed).
fn answer(entry: &Value) -> Option<Value> {
    let data = entry["data"].as_str()?;
    let Some(expression) = entry["jq"].as_str() else {
        return serde_json::from_str(data.trim()).ok();
    };
    let mut child = Command::new("jq")
        .arg("-c")
        .arg(expression)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(data.as_bytes()).ok()?;
    let output = child.wait_with_output().ok()?;
    serde_json::from_slice(&output.stdout).ok()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// One row of the results: a task through a variant, from its sessions (the first one's texts).
pub(crate) fn row(task: &Task, variant: &str, sessions: &[Value]) -> Value {
    let first = &sessions[0];
    let expected: Vec<Value> = task
        .questions
        .iter()
        .map(|q| serde_json::from_str(q.expected).expect("expected answer is JSON"))
        .collect();
    let mut wrong = Vec::new();
    for session in sessions {
        let answers = session["answers"].as_array().cloned().unwrap_or_default();
        for (index, want) in expected.iter().enumerate() {
            let got = answers.get(index).and_then(answer);
            if got.as_ref() != Some(want) {
                wrong.push(json!({"question": index, "got": got, "expected": want}));
            }
        }
    }
    wrong.truncate(3);
    let definitions = measure(&texts(&first["definitions"]));
    let results = measure(&texts(&first["results"]));
    let total =
        |key: &str| definitions[key].as_u64().unwrap_or(0) + results[key].as_u64().unwrap_or(0);
    let mut row = json!({
        "task": task.id,
        "prompt": task.prompt,
        "variant": variant,
        "calls": first["calls"],
        "definitions": definitions,
        "results": results,
        "total": {"bytes": total("bytes"), "o200k": total("o200k"), "cl100k": total("cl100k")},
        "wall_ms_median": median(sessions.iter().filter_map(|s| s["wall_ms"].as_f64()).collect()),
        "peak_rss_kb": sessions.iter().filter_map(|s| s["max_rss_kb"].as_i64()).max(),
        "correct": wrong.is_empty(),
    });
    if !wrong.is_empty() {
        row["wrong"] = wrong.into();
    }
    if variant.starts_with("mcp") {
        row["mcp_results"] = json!({
            "as_sent": results,
            "duplicate_bytes": first["duplicate_bytes"],
            "provenance_bytes": first["provenance_bytes"],
            "text_only": measure(&texts(&first["text_only"])),
            "without_provenance": measure(&texts(&first["without_provenance"])),
            "structured": measure(&texts(&first["structured"])),
            "text_blocks": first["text_blocks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|block| {
                    let text = block["text"].as_str().unwrap_or_default();
                    let result = block["result"].as_str().unwrap_or_default();
                    json!({
                        "tool": block["tool"],
                        "text": measure(&[text.to_string()]),
                        "result": measure(&[result.to_string()]),
                    })
                })
                .collect::<Vec<_>>(),
        });
    }
    row
}

/// The cost of the text block every success carries beside `structuredContent` (issue 31), per
/// tool: summed over the calls of the tasks, without `fields` (`mcp-stdio`) and as the lean
/// 2026-07-28 client asks (`mcp-stdio-lean`, with `fields` and compact provenance).
fn text_block_table(rows: &[Value]) -> String {
    let mut out = String::from(
        "\nThe text block per tool (o200k tokens and bytes, summed over the tasks' calls; the share is of the whole result as sent):\n\n\
         | tool | variant | calls | text block o200k | text block bytes | result o200k | share |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    let mut lines: Vec<((String, String), [u64; 4])> = Vec::new();
    for row in rows {
        let variant = row["variant"].as_str().unwrap_or("");
        if !matches!(variant, "mcp-stdio" | "mcp-stdio-lean") {
            continue;
        }
        for block in row["mcp_results"]["text_blocks"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let key = (
                block["tool"].as_str().unwrap_or("").to_string(),
                variant.to_string(),
            );
            let add = [
                1,
                block["text"]["o200k"].as_u64().unwrap_or(0),
                block["text"]["bytes"].as_u64().unwrap_or(0),
                block["result"]["o200k"].as_u64().unwrap_or(0),
            ];
            match lines.iter_mut().find(|(k, _)| *k == key) {
                Some((_, sums)) => sums.iter_mut().zip(add).for_each(|(s, a)| *s += a),
                None => lines.push((key, add)),
            }
        }
    }
    lines.sort();
    for ((tool, variant), [calls, tokens, bytes, result]) in lines {
        let share = if result == 0 {
            0.0
        } else {
            100.0 * tokens as f64 / result as f64
        };
        out.push_str(&format!(
            "| {tool} | {variant} | {calls} | {tokens} | {bytes} | {result} | {share:.0} % |\n"
        ));
    }
    out
}

/// Per task, each MCP variant against the CLI with the same `fields` (`cli-fields`): calls and the
/// bytes of the results (definitions apart), as sent and as a host that shows the model only the
/// text content reads them.
fn cli_against_mcp_table(rows: &[Value]) -> String {
    let mut out = String::from(
        "\nResults only (definitions apart), each MCP variant against the CLI with the same fields:\n\n\
         | task | MCP variant | CLI calls | CLI bytes | MCP calls | MCP bytes as sent | × CLI | MCP text content bytes | × CLI | `structuredContent` bytes | × CLI | correct (CLI/MCP) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let yes = |row: &Value| if row["correct"] == true { "yes" } else { "NO" };
    for mcp in rows.iter().filter(|r| r.get("mcp_results").is_some()) {
        let Some(cli) = rows
            .iter()
            .find(|r| r["task"] == mcp["task"] && r["variant"] == "cli-fields")
        else {
            continue;
        };
        let cli_bytes = cli["results"]["bytes"].as_f64().unwrap_or(0.0).max(1.0);
        let sent = mcp["mcp_results"]["as_sent"]["bytes"]
            .as_f64()
            .unwrap_or(0.0);
        let text = mcp["mcp_results"]["text_only"]["bytes"]
            .as_f64()
            .unwrap_or(0.0);
        let structured = mcp["mcp_results"]["structured"]["bytes"]
            .as_f64()
            .unwrap_or(0.0);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} | {} | {:.2} | {} | {:.2} | {}/{} |\n",
            mcp["task"].as_str().unwrap_or(""),
            mcp["variant"].as_str().unwrap_or(""),
            n(&cli["calls"]),
            n(&cli["results"]["bytes"]),
            n(&mcp["calls"]),
            sent,
            sent / cli_bytes,
            text,
            text / cli_bytes,
            structured,
            structured / cli_bytes,
            yes(cli),
            yes(mcp),
        ));
    }
    out
}

fn n(value: &Value) -> String {
    value.as_u64().map(|v| v.to_string()).unwrap_or_default()
}

/// The Markdown tables of a results document.
pub(crate) fn tables(document: &Value) -> String {
    let rows = document["rows"].as_array().cloned().unwrap_or_default();
    let mut out = String::new();
    out.push_str(
        "| task | variant | calls | definitions (o200k) | results (o200k) | total o200k | total cl100k | bytes | ms (median) | peak RSS (MB) | correct |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in &rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {:.1} | {} |\n",
            row["task"].as_str().unwrap_or(""),
            row["variant"].as_str().unwrap_or(""),
            n(&row["calls"]),
            n(&row["definitions"]["o200k"]),
            n(&row["results"]["o200k"]),
            n(&row["total"]["o200k"]),
            n(&row["total"]["cl100k"]),
            n(&row["total"]["bytes"]),
            row["wall_ms_median"].as_f64().unwrap_or(0.0),
            row["peak_rss_kb"].as_f64().unwrap_or(0.0) / 1024.0,
            if row["correct"] == true { "yes" } else { "NO" },
        ));
    }
    out.push_str("\nPer variant, all tasks together:\n\n| variant | calls | total o200k | total cl100k | bytes | ms (sum of medians) | correct |\n|---|---:|---:|---:|---:|---:|---|\n");
    let mut variants: Vec<String> = Vec::new();
    for row in &rows {
        let v = row["variant"].as_str().unwrap_or("").to_string();
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    for variant in &variants {
        let mine: Vec<&Value> = rows.iter().filter(|r| r["variant"] == **variant).collect();
        let sum = |f: &dyn Fn(&Value) -> f64| mine.iter().map(|r| f(r)).sum::<f64>();
        out.push_str(&format!(
            "| {variant} | {} | {} | {} | {} | {:.0} | {}/{} |\n",
            sum(&|r| r["calls"].as_f64().unwrap_or(0.0)),
            sum(&|r| r["total"]["o200k"].as_f64().unwrap_or(0.0)),
            sum(&|r| r["total"]["cl100k"].as_f64().unwrap_or(0.0)),
            sum(&|r| r["total"]["bytes"].as_f64().unwrap_or(0.0)),
            sum(&|r| r["wall_ms_median"].as_f64().unwrap_or(0.0)),
            mine.iter().filter(|r| r["correct"] == true).count(),
            mine.len(),
        ));
    }
    out.push_str("\nMCP results only (o200k tokens), as sent and with the parts a host may not need:\n\n| task | variant | as sent | text content only | without `_meta` provenance | duplicate bytes | provenance bytes |\n|---|---|---:|---:|---:|---:|---:|\n");
    for row in rows.iter().filter(|r| r.get("mcp_results").is_some()) {
        let m = &row["mcp_results"];
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            row["task"].as_str().unwrap_or(""),
            row["variant"].as_str().unwrap_or(""),
            n(&m["as_sent"]["o200k"]),
            n(&m["text_only"]["o200k"]),
            n(&m["without_provenance"]["o200k"]),
            n(&m["duplicate_bytes"]),
            n(&m["provenance_bytes"]),
        ));
    }
    out.push_str(&text_block_table(&rows));
    out.push_str(&cli_against_mcp_table(&rows));
    for note in document["notes"].as_array().into_iter().flatten() {
        out.push_str(&format!("\n- {}", note.as_str().unwrap_or("")));
    }
    out.push('\n');
    out
}
