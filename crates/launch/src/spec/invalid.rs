//! Why an `adapter:` section breaks one of its rules, as a type: the rule
//! ([`AdapterRule`], a closed set), the field it is about
//! ([`AdapterField`]) and where that field is written in the profile text.
//!
//! Core carries this error in its `InvalidProfile` (as
//! `InvalidKind::Adapter`) and asks it for its place
//! ([`LaunchError::locate`]), so that the adapter's fields and rules are
//! named here alone: a new target kind adds its fields and rules to this
//! file and touches no file of core's. The `Display` of each rule is the
//! message framecheck printed when core held these rules.

use framecheck_core::profile::{InvalidKind, InvalidProfile, LaunchError, Position};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_saphyr::Spanned;

/// The `adapter:` field an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdapterField {
    /// `adapter.command`.
    AdapterCommand,
    /// `adapter.timeout_ms`.
    AdapterTimeoutMs,
    /// `adapter.mcp.command`.
    McpCommand,
    /// `adapter.mcp.timeout_ms`.
    McpTimeoutMs,
    /// `adapter.mcp.arguments`.
    McpArguments,
    /// `adapter.mcp.plant_name`.
    McpPlantName,
    /// `adapter.mcp.plant_body`.
    McpPlantBody,
    /// `adapter.mcp.url`.
    McpUrl,
    /// `adapter.mcp.plant`.
    McpPlant,
    /// `adapter.mcp.write` (`plant: tool`'s write tool).
    McpWrite,
    /// `adapter.mcp.setup` (`plant: command`'s setup command).
    McpSetup,
    /// `adapter.mcp.clean`.
    McpClean,
    /// `adapter.mcp.clean_tool`.
    McpCleanTool,
}

impl AdapterField {
    /// Every field an adapter rule names.
    pub const ALL: [AdapterField; 13] = [
        AdapterField::AdapterCommand,
        AdapterField::AdapterTimeoutMs,
        AdapterField::McpCommand,
        AdapterField::McpTimeoutMs,
        AdapterField::McpArguments,
        AdapterField::McpPlantName,
        AdapterField::McpPlantBody,
        AdapterField::McpUrl,
        AdapterField::McpPlant,
        AdapterField::McpWrite,
        AdapterField::McpSetup,
        AdapterField::McpClean,
        AdapterField::McpCleanTool,
    ];

    /// The field's path in a profile, as messages spell it
    /// (`adapter.mcp.url`).
    pub fn path(self) -> &'static str {
        match self {
            AdapterField::AdapterCommand => "adapter.command",
            AdapterField::AdapterTimeoutMs => "adapter.timeout_ms",
            AdapterField::McpCommand => "adapter.mcp.command",
            AdapterField::McpTimeoutMs => "adapter.mcp.timeout_ms",
            AdapterField::McpArguments => "adapter.mcp.arguments",
            AdapterField::McpPlantName => "adapter.mcp.plant_name",
            AdapterField::McpPlantBody => "adapter.mcp.plant_body",
            AdapterField::McpUrl => "adapter.mcp.url",
            AdapterField::McpPlant => "adapter.mcp.plant",
            AdapterField::McpWrite => "adapter.mcp.write",
            AdapterField::McpSetup => "adapter.mcp.setup",
            AdapterField::McpClean => "adapter.mcp.clean",
            AdapterField::McpCleanTool => "adapter.mcp.clean_tool",
        }
    }
}

/// Which rule of an `adapter:` section broke.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdapterRule {
    /// A subprocess adapter with an empty command.
    #[error("adapter.command must name a program")]
    EmptyCommand,
    /// A subprocess adapter with a zero timeout.
    #[error("adapter.timeout_ms must be positive")]
    ZeroTimeout,
    /// An MCP adapter with an empty command.
    #[error("adapter.mcp.command must name a program")]
    McpEmptyCommand,
    /// An MCP adapter with a zero timeout.
    #[error("adapter.mcp.timeout_ms must be positive")]
    McpZeroTimeout,
    /// No argument carries the placeholder the plant needs, so the tool
    /// would never see the content.
    #[error("adapter.mcp.arguments: plant `{plant}` needs `{placeholder}` in an argument value, or the tool never reads the content")]
    McpPlantNotReached {
        /// The plant, as written.
        plant: &'static str,
        /// The placeholder no argument holds.
        placeholder: &'static str,
    },
    /// A plant name that is not one plain file name.
    #[error("adapter.mcp.plant_name {0:?} must be one file name (no `/`, not `.` or `..`)")]
    McpBadPlantName(String),
    /// A fixture page path with an empty, `.` or `..` segment.
    #[error("adapter.mcp.plant_name {0:?} must be a page path of names separated by `/` (none empty, `.` or `..`)")]
    McpBadPagePath(String),
    /// A page body for a plant that serves no page.
    #[error("adapter.mcp.plant_body is the fixture page's body; it needs `plant: http`")]
    McpBodyWithoutPage,
    /// An endpoint that is not a plain `http://` URL (the server runs on
    /// this machine; no TLS client is built in).
    #[error(
        "adapter.mcp.url {0:?} must be a plain http:// URL, such as http://127.0.0.1:{{port}}/mcp"
    )]
    McpUrlNotHttp(String),
    /// `{port}` in the endpoint but nowhere in the command or environment,
    /// so the server would never learn which port to listen on.
    #[error("adapter.mcp.url has `{{port}}` but neither adapter.mcp.command nor env does, so the server cannot know which port to listen on")]
    McpPortNotPassed,
    /// An endpoint without a command: a server framecheck does not start
    /// could be neither restarted after a hang nor stopped.
    #[error("adapter.mcp.url needs adapter.mcp.command: framecheck starts the server itself, so it can restart it after a hang and stop it at the end (a server already running elsewhere is not supported)")]
    McpUrlWithoutCommand,
    /// A plant or clean strategy without the key that says how: `plant:
    /// tool` without `write`, `plant: command` without `setup`, `clean:
    /// tool` without `clean_tool`.
    #[error("adapter.mcp: `{given}` needs `{needs}` ({what})")]
    McpNeeds {
        /// The choice made, as written (`plant: tool`).
        given: &'static str,
        /// The key it needs.
        needs: &'static str,
        /// What that key holds.
        what: &'static str,
    },
    /// A key read only with a plant or clean strategy the profile does not
    /// choose, so it would be silently ignored.
    #[error("adapter.mcp.{key} is only read with `{only_with}`; the profile does not choose it")]
    McpUnused {
        /// The key, as written.
        key: &'static str,
        /// The choice it belongs to.
        only_with: &'static str,
    },
    /// A write tool or argument-fed setup command that never gets the
    /// content.
    #[error("adapter.mcp.{key} must hold `{{content}}` (or `{{content_json}}`), or the store never gets the content")]
    McpContentNotPassed {
        /// The key whose values were searched.
        key: &'static str,
    },
    /// A setup command with no program.
    #[error("adapter.mcp.setup.command must name a program")]
    McpEmptySetup,
    /// A setup command with a zero timeout.
    #[error("adapter.mcp.setup.timeout_ms must be positive")]
    McpZeroSetupTimeout,
    /// A JSON pointer that is neither empty nor starts with `/`.
    #[error("adapter.mcp.write.id.pointer {0:?} is not a JSON pointer (RFC 6901): it starts with `/`, as in `/id`")]
    McpBadIdPointer(String),
    /// A pattern the regular-expression engine refuses.
    #[error("adapter.mcp.write.id.pattern {pattern:?} is not a regular expression: {reason}")]
    McpBadIdPattern {
        /// The pattern.
        pattern: String,
        /// The engine's message.
        reason: String,
    },
    /// `{id}` in the read's or the clean tool's arguments, but no
    /// `write.id` to fill it from.
    #[error("adapter.mcp.{key} uses `{{id}}`, but adapter.mcp.write.id does not say where the write tool's answer has it")]
    McpIdNotPicked {
        /// The key whose values use `{id}`.
        key: &'static str,
    },
}

/// Why an `adapter:` section is not valid: the rule and the field. It
/// displays as the rule's message; core puts the field's line and column
/// in front of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{rule}")]
pub struct InvalidAdapter {
    /// The field the rule is about.
    pub field: AdapterField,
    /// The rule that broke.
    pub rule: AdapterRule,
}

impl InvalidAdapter {
    /// `rule`, broken at `field`.
    pub fn new(field: AdapterField, rule: AdapterRule) -> InvalidAdapter {
        InvalidAdapter { field, rule }
    }

    /// The adapter's error a profile error carries, when it carries one.
    pub fn of(error: &InvalidProfile) -> Option<&InvalidAdapter> {
        match &error.kind {
            InvalidKind::Adapter(fault) => fault.downcast_ref(),
            _ => None,
        }
    }
}

impl LaunchError for InvalidAdapter {
    fn locate(&self, text: &str) -> Option<Position> {
        locate(text, self.field)
    }
}

/// The profile's `adapter:` section, read once more with each field's
/// position (the rest of the profile ignored). It tolerates any shape: a
/// field it cannot read has no position, and the message is printed
/// without one rather than with a wrong one.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Shadow {
    adapter: Option<ShadowAdapter>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowAdapter {
    command: Option<Spanned<IgnoredAny>>,
    timeout_ms: Option<Spanned<IgnoredAny>>,
    mcp: Option<ShadowMcp>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowMcp {
    command: Option<Spanned<IgnoredAny>>,
    timeout_ms: Option<Spanned<IgnoredAny>>,
    arguments: Option<Spanned<IgnoredAny>>,
    plant_name: Option<Spanned<IgnoredAny>>,
    plant_body: Option<Spanned<IgnoredAny>>,
    url: Option<Spanned<IgnoredAny>>,
    plant: Option<Spanned<IgnoredAny>>,
    write: Option<Spanned<IgnoredAny>>,
    setup: Option<Spanned<IgnoredAny>>,
    clean: Option<Spanned<IgnoredAny>>,
    clean_tool: Option<Spanned<IgnoredAny>>,
}

/// The 1-based position of `field` in the profile `text`, when the text
/// shows it.
pub(crate) fn locate(text: &str, field: AdapterField) -> Option<Position> {
    let options = framecheck_core::yaml::options();
    let shadow: Shadow = serde_saphyr::from_str_with_options(text, options).ok()?;
    let adapter = shadow.adapter.unwrap_or_default();
    let mcp = adapter.mcp.unwrap_or_default();
    let spanned = match field {
        AdapterField::AdapterCommand => adapter.command,
        AdapterField::AdapterTimeoutMs => adapter.timeout_ms,
        AdapterField::McpCommand => mcp.command,
        AdapterField::McpTimeoutMs => mcp.timeout_ms,
        AdapterField::McpArguments => mcp.arguments,
        AdapterField::McpPlantName => mcp.plant_name,
        AdapterField::McpPlantBody => mcp.plant_body,
        AdapterField::McpUrl => mcp.url,
        AdapterField::McpPlant => mcp.plant,
        AdapterField::McpWrite => mcp.write,
        AdapterField::McpSetup => mcp.setup,
        AdapterField::McpClean => mcp.clean,
        AdapterField::McpCleanTool => mcp.clean_tool,
    };
    spanned.as_ref().and_then(Position::of)
}
