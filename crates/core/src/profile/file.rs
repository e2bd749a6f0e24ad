//! A profile as its file spells it: one mapping holding the adapter beside
//! every part of the frame description.
//!
//! [`TargetProfile`] keeps the two apart; this is the one struct serde reads
//! and writes, so a profile's YAML, its unknown-key and wrong-type errors
//! (the struct is still called `TargetProfile` in them) and the JSON a
//! report records and hashes are what they were when the profile was one
//! struct. The adapter's type is a parameter so that a reader that only
//! needs the frame description can leave the adapter unread.

use serde::{Deserialize, Serialize};

use super::{
    delimiters_or_none, AttributeLayout, BodySection, Capability, Delimiters, FrameProfile,
    FrameSection, HeaderSpec, Launch, PackageRef, ReaderSection, RecordsSection, SourceRef,
    TargetProfile, WrapSection,
};
use crate::chat_template::TemplateContext;

/// Every key of a profile, in the order a profile is written.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "TargetProfile", deny_unknown_fields)]
pub(crate) struct ProfileFile<A> {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    language: String,
    adapter: A,
    #[serde(with = "delimiters_or_none")]
    delimiters: Delimiters,
    #[serde(default)]
    header: HeaderSpec,
    #[serde(default)]
    attributes: AttributeLayout,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body_padding: Option<String>,
    #[serde(default)]
    frame: FrameSection,
    #[serde(default)]
    body: BodySection,
    #[serde(default, skip_serializing_if = "WrapSection::is_default")]
    wrap: WrapSection,
    #[serde(default)]
    reader: ReaderSection,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records: Option<RecordsSection>,
    capabilities: Vec<Capability>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<SourceRef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    packages: Vec<PackageRef>,
    #[serde(default, skip_serializing_if = "TemplateContext::is_unset")]
    chat_template: TemplateContext,
}

impl<A> ProfileFile<A> {
    /// The adapter as read, and the frame description.
    pub(super) fn split(self) -> (A, FrameProfile) {
        let framing = FrameProfile {
            name: self.name,
            description: self.description,
            language: self.language,
            delimiters: self.delimiters,
            header: self.header,
            attributes: self.attributes,
            body_padding: self.body_padding,
            frame: self.frame,
            body: self.body,
            wrap: self.wrap,
            reader: self.reader,
            records: self.records,
            capabilities: self.capabilities,
            source: self.source,
            packages: self.packages,
            chat_template: self.chat_template,
        };
        (self.adapter, framing)
    }

    /// The file of `framing` reached through `adapter`.
    pub(super) fn join(adapter: A, framing: FrameProfile) -> ProfileFile<A> {
        ProfileFile {
            name: framing.name,
            description: framing.description,
            language: framing.language,
            adapter,
            delimiters: framing.delimiters,
            header: framing.header,
            attributes: framing.attributes,
            body_padding: framing.body_padding,
            frame: framing.frame,
            body: framing.body,
            wrap: framing.wrap,
            reader: framing.reader,
            records: framing.records,
            capabilities: framing.capabilities,
            source: framing.source,
            packages: framing.packages,
            chat_template: framing.chat_template,
        }
    }
}

/// A target read back (from a report) is validated as a parsed one is.
impl<A: Launch> TryFrom<ProfileFile<A>> for TargetProfile<A> {
    type Error = super::InvalidProfile;

    fn try_from(file: ProfileFile<A>) -> Result<TargetProfile<A>, Self::Error> {
        let (adapter, framing) = file.split();
        TargetProfile::new(adapter, framing)
    }
}

impl<A> From<TargetProfile<A>> for ProfileFile<A> {
    fn from(profile: TargetProfile<A>) -> ProfileFile<A> {
        ProfileFile::join(profile.adapter, profile.framing.into_declared())
    }
}
