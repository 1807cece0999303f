//! The agent the chat tests talk to: an owner, one agent of theirs ("Ada"), and its chat
//! routes at hand.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Session, TestApp};

/// An owner's agent to chat with through the API.
pub struct Chat {
    pub app: TestApp,
    pub owner: Session,
    pub id: String,
}

impl Chat {
    /// Signs an owner up and creates their agent "Ada".
    pub async fn new(app: TestApp) -> Chat {
        let owner = app.signup("ada@example.com").await;
        let id = app.create_agent(&owner, json!({ "name": "Ada" })).await["id"].as_str().unwrap().to_string();
        Chat { app, owner, id }
    }

    /// `/v1/hosted-agents/{id}` followed by `rest`.
    pub fn path(&self, rest: &str) -> String {
        format!("/v1/hosted-agents/{}{rest}", self.id)
    }

    /// A POST to one of the agent's routes, as its owner.
    pub fn post(&self, rest: &str) -> reqwest::RequestBuilder {
        self.app.as_bearer(&self.owner.token, Method::POST, &self.path(rest))
    }

    /// A GET of one of the agent's routes, as its owner (asserting 200), as JSON.
    pub async fn get(&self, rest: &str) -> Value {
        let r = self.app.send(self.app.as_bearer(&self.owner.token, Method::GET, &self.path(rest))).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }

    /// Sends a chat message (in `conversation`, or a new one) and returns the reply (asserting 200).
    pub async fn say(&self, message: &str, conversation: Option<&str>) -> Value {
        let r = self
            .app
            .send(self.post("/chat").json(&json!({ "message": message, "conversation_id": conversation })))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }

    /// Starts a streamed chat turn (SSE) in a new conversation; the open response (asserting 200).
    pub async fn stream(&self, message: &str) -> reqwest::Response {
        let resp = self
            .post("/chat")
            .header("accept", "text/event-stream")
            .json(&json!({ "message": message }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        resp
    }

    /// The agent's memories once the learning jobs its turns queued have run: at least `n`.
    pub async fn memories_at_least(&self, n: usize) -> Vec<Value> {
        self.app.run_jobs().await;
        let list = self.get("/memories").await.as_array().unwrap().clone();
        assert!(list.len() >= n, "the agent has {} memories, expected at least {n}: {list:?}", list.len());
        list
    }
}
