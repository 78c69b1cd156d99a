//! Provider-neutral chat requests: one JSON line per request
//! (`{custom_id, messages, metadata}`), and the same request in the shape
//! of each batch engine.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system` or `user`.
    pub role: String,
    /// The text.
    pub content: String,
}

/// A provider-neutral chat request (one JSONL line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmRequest {
    /// The instance id; answers are matched back by it.
    pub custom_id: String,
    /// The conversation.
    pub messages: Vec<ChatMessage>,
    /// Repository, language, files and target ids, for bookkeeping.
    pub metadata: Value,
}

impl LlmRequest {
    /// The same request as an OpenAI Batch API line for `model`.
    pub fn to_openai_batch(&self, model: &str) -> Value {
        json!({
            "custom_id": self.custom_id,
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": model, "temperature": 0, "messages": self.messages},
        })
    }

    /// The same request as an Anthropic Message Batches line for `model`
    /// (the system message moves to `system`).
    pub fn to_anthropic_batch(&self, model: &str, max_tokens: u32) -> Value {
        let system: Vec<&str> = self
            .messages
            .iter()
            .filter(|m| m.role == "system")
            .map(|m| m.content.as_str())
            .collect();
        let msgs: Vec<&ChatMessage> = self
            .messages
            .iter()
            .filter(|m| m.role != "system")
            .collect();
        json!({
            "custom_id": self.custom_id,
            "params": {"model": model, "max_tokens": max_tokens, "system": system.join("\n\n"), "messages": msgs},
        })
    }
}

/// A model's answer for one instance, as read from a results file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The instance (`custom_id` of the request).
    pub instance_id: String,
    /// The answer text.
    pub content: String,
}
