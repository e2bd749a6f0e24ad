//! Subprocess targets speaking the JSON-lines protocol.
