//! A child process spoken to in lines: JSON-RPC over stdio, as an MCP client speaks to
//! `overheid-mcp` (the tools/list budget test, the transports benchmark).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// A running child with piped stdin and stdout; stdout is read line by line on a thread.
pub struct LineChild {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: i64,
}

impl LineChild {
    /// Starts `command` with stdin and stdout piped (stderr as the command has it).
    pub fn start(mut command: Command) -> LineChild {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the child starts");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        LineChild {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 0,
        }
    }

    /// Writes one message as a line.
    pub fn write(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{message}").expect("write to the child");
        stdin.flush().expect("flush");
    }

    /// Sends a JSON-RPC request and returns the raw line of its response (other lines are skipped).
    pub fn request(&mut self, method: &str, params: Value, timeout: Duration) -> String {
        self.next_id += 1;
        let id = self.next_id;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(timeout)
                .expect("an answer within the timeout");
            let value: Value = serde_json::from_str(&line).unwrap_or_default();
            if value["id"] == id {
                return line;
            }
        }
    }

    /// Closes stdin and waits for the child to end.
    pub fn close(mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}
