//! The plain benign contents a profile's fit is checked with: the fit check
//! (`fit`), the unmarked run (`unmarked`), the document run (`document`)
//! and `init`'s experiments all plant them, so they live below all four.
//! And the layout learned from plain probes, for a framing that rewrites
//! the usual probes' content: the runner's fit check and `init` both learn
//! it ([`learn_plain`]).

use crate::adapter::WrapRequest;
use framecheck_core::layout::{self, Layout, LayoutError, Probes};
use framecheck_launch::profile::TargetProfile;

use super::varying;

/// Plain benign contents: nothing in them reads as a delimiter, a header
/// line or an escape at any level, so any frame-shape finding on them is
/// about the profile. One line and several paragraphs, because framings
/// that change their layout with the content's line count exist.
pub(crate) const PLAIN: [(&str, &str); 2] = [
    (
        "one line of plain prose",
        "fcplain1 The meeting moved to Thursday at noon.",
    ),
    (
        "two paragraphs of plain prose",
        "fcplain2 The first paragraph has two sentences. It ends here.\n\nThe second paragraph is short.",
    ),
];

/// The layout learned from `probes` made plain ([`Probes::plain`]), and the
/// probes it was learned from; `wrap`'s error when a wrap fails. One-line
/// content first, since a framing may rewrite line breaks; when that comes
/// back written whole twice (a framing that echoes the content's first
/// line, a title, writes all of one-line content twice), content on two
/// lines ([`Probes::plain_lines`]), whose body is the one place that holds
/// the whole content, as for the usual probes.
pub(crate) fn learn_plain<E>(
    profile: &TargetProfile,
    probes: &Probes,
    mut wrap: impl FnMut(&WrapRequest) -> Result<String, E>,
) -> Result<(Probes, Result<Layout, LayoutError>), E> {
    let empty = profile.frame.empty;
    let (plain, wraps) = varying::calibrated(empty, probes.plain(), &mut wrap)?;
    let learned = layout::learn(profile, &plain, &wraps);
    if !matches!(learned, Err(LayoutError::ContentRepeated { .. })) {
        return Ok((plain, learned));
    }
    let (lines, wraps) = varying::calibrated(empty, probes.plain_lines(), &mut wrap)?;
    let learned = layout::learn(profile, &lines, &wraps);
    Ok((lines, learned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::{Framing, TargetError};
    use framecheck_core::level::ReaderLevel;

    /// `Title: <first line>` before `<document>…</document>`, the body's
    /// tags dropped: the usual probes' `<i>` comes back rewritten, so the
    /// layout is learned from plain content, and one-line plain content is
    /// written whole twice (title and body).
    struct EchoedTitle;

    impl Framing for EchoedTitle {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            let content = &request.content;
            let title = content.split('\n').next().unwrap_or_default();
            let body = content.replace("<i>", "").replace("</i>", "");
            Ok(format!("Title: {title}\n<document>\n{body}\n</document>"))
        }

        fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
            Ok(None)
        }
    }

    fn profile() -> TargetProfile {
        TargetProfile::parse(
            "name: t\nadapter: { builtin: reference }\n\
             delimiters: { grammar: xml-tag, token: document }\nheader: none\n\
             capabilities: [wrap]\n",
        )
        .unwrap()
    }

    /// Issue 57: one-line plain content is written whole twice by a
    /// framing that echoes the first line, so it is learned from plain
    /// content on two lines, whose body is the one whole occurrence; the
    /// profile then fits (it was refused: without a layout the title reads
    /// as a frame that does not begin with `<document`).
    #[test]
    fn an_echoed_title_over_a_rewritten_body_is_learned_from_two_plain_lines() {
        let profile = profile();
        let probes = layout::probes(&profile);
        let one = probes.plain();
        let wraps: Vec<String> = one
            .requests()
            .iter()
            .map(|r| EchoedTitle.wrap(r).unwrap())
            .collect();
        assert!(matches!(
            layout::learn(&profile, &one, &wraps),
            Err(LayoutError::ContentRepeated { .. })
        ));
        let (plain, learned) = learn_plain(&profile, &probes, |r| EchoedTitle.wrap(r)).unwrap();
        let layout = learned.expect("learned from two plain lines");
        let content = &plain.requests()[0].content;
        assert!(content.contains('\n'), "{content}");
        let sample = &layout.sample;
        assert_eq!(&sample.framed[sample.slot.clone()], content);
        assert!(sample.framed[..sample.slot.start].ends_with("<document>\n"));
        let fit = crate::runner::check_fit(&profile, &mut EchoedTitle, ReaderLevel::Unicode);
        assert_eq!(fit, Ok(()));
    }
}
