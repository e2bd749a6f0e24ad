//! Framings whose output varies with the content (issue 57, item 3).
//!
//! Some framings choose their shape per content: a frame only above some
//! length, raw for one plain line and JSON otherwise. Calibration then sees
//! some outputs framed and others not. Each output is judged in the shape it
//! actually has: one that comes back as the content itself, with nothing
//! around it, is judged as what it is, a `frame.absent` finding on that case
//! alone (a catalogue attack in it has no frame to break, so the checks
//! that measure a frame would describe one that is not there). Outputs that
//! are framed are judged against the layout as usual. When the framing
//! returns the calibration probes themselves unframed (a frame only above
//! a few hundred characters), calibration wraps longer ones ([`calibrated`]).
//!
//! The opposite mistake is the profile's: it describes every benign output
//! wrongly. [`Misread`] is the rule `fit` refuses such a run by: the
//! framing carried the content and provenance of every plain wrap intact,
//! and the profile reads every one as losing them (a header declared `none`
//! that the framing writes).

use framecheck_core::layout::{self, Layout, LayoutError, Probes};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use framecheck_launch::profile::{Capability, EmptyContent, TargetProfile};

use super::unmarked::Delivery;
use crate::adapter::WrapRequest;

/// Whether `framed` is `request`'s content with no frame at all: the
/// content as it is, or (when it is not blank) with only surrounding
/// whitespace changed. Content declared to yield nothing (`empty`, the
/// profile's `frame.empty`) never counts: that is a declared shape, judged by the
/// layout; nor does blank content that came back changed (`frame.empty`'s
/// own findings say what became of it).
pub(crate) fn unframed(empty: EmptyContent, request: &WrapRequest, framed: &str) -> bool {
    let content = &request.content;
    if empty.yields_nothing(content) {
        return false;
    }
    framed == content || (!content.trim().is_empty() && framed.trim() == content.trim())
}

/// The `frame.absent` finding for a case whose output [`unframed`] says is
/// its content alone, at every level (no reader level sees a frame that is
/// not there); its class as `delivery` says, as for an unmarked framing.
pub(crate) fn absent(
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    delivery: Delivery,
) -> Option<Finding> {
    if !unframed(profile.frame.empty, request, framed) {
        return None;
    }
    let (class, relies) = match delivery {
        Delivery::PromptText => (CheckClass::Security, ""),
        Delivery::HostMessage => (
            CheckClass::HostFramed,
            "; the server relies on the host's framing (the host's tool-result message)",
        ),
    };
    Some(Finding {
        consumer: Default::default(),
        check: Check::FrameAbsent,
        class,
        levels: ReaderLevel::ALL.to_vec(),
        message: format!(
            "the framing returned this content as it is, with no frame around it (it frames \
             other content): nothing tells it from the text around it, so it was judged as \
             unframed, not against the frame{relies}"
        ),
        excerpt: Some(Excerpt::cut(ExcerptSource::Framed, framed, 0, framed.len())),
        in_context: false,
        fault: None,
        live: None,
    })
}

/// Whether a plain benign wrap's fidelity findings under `profile` are the
/// profile's misreading rather than a loss: the framing wrote the content,
/// and the provenance where the profile declares one, verbatim, yet judged
/// under the profile the wrap lost one of them. A framing that rewrites or
/// drops them is not covered: its loss is a case finding. The fidelity
/// finding is returned.
fn reads_as_lost<'a>(
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    findings: &'a [Finding],
) -> Option<&'a Finding> {
    let carried = framed.contains(&request.content)
        && (!profile.can(Capability::Provenance)
            || request.provenance.is_empty()
            || framed.contains(&request.provenance));
    findings
        .iter()
        .find(|f| f.check == Check::Fidelity)
        .filter(|_| carried)
}

/// Wraps the calibration `probes` with `wrap`, and when the framing returns
/// any of them as it is, with no frame (a framing that frames only content
/// above some length), the same probes made longer
/// ([`layout::LONGER_PROBES`]), until it frames every one. The probes and
/// outputs to learn from: the first that are all framed, else the usual
/// ones, from which calibration says what it does not find. A failed wrap
/// of the usual probes is `wrap`'s error; one of longer probes (a framing
/// with a length limit) leaves the usual ones.
pub(crate) fn calibrated<E>(
    empty: EmptyContent,
    probes: Probes,
    mut wrap: impl FnMut(&WrapRequest) -> Result<String, E>,
) -> Result<(Probes, Vec<String>), E> {
    let usual = wrap_all(&probes, &mut wrap)?;
    if all_framed(empty, &probes, &usual) {
        return Ok((probes, usual));
    }
    for at_least in layout::LONGER_PROBES {
        let longer = probes.longer(at_least);
        match wrap_all(&longer, &mut wrap) {
            Ok(wraps) if all_framed(empty, &longer, &wraps) => return Ok((longer, wraps)),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok((probes, usual))
}

/// Each of `probes`' requests, wrapped.
fn wrap_all<E>(
    probes: &Probes,
    wrap: &mut impl FnMut(&WrapRequest) -> Result<String, E>,
) -> Result<Vec<String>, E> {
    probes.requests().iter().map(wrap).collect()
}

/// Whether no output of `probes` is its content alone ([`unframed`]).
fn all_framed(empty: EmptyContent, probes: &Probes, wraps: &[String]) -> bool {
    probes
        .requests()
        .iter()
        .zip(wraps)
        .all(|(request, out)| !unframed(empty, request, out))
}

/// The plain benign wraps `fit` judged under the profile, and those the
/// profile reads as losing what the framing wrote intact.
#[derive(Debug, Default)]
pub(crate) struct Misread {
    judged: usize,
    lost: Vec<(&'static str, String)>,
}

impl Misread {
    /// Notes one judged plain wrap (`content` says what it was).
    pub(crate) fn note(
        &mut self,
        content: &'static str,
        profile: &TargetProfile,
        request: &WrapRequest,
        framed: &str,
        findings: &[Finding],
    ) {
        self.judged += 1;
        if let Some(lost) = reads_as_lost(profile, request, framed, findings) {
            self.lost.push((content, lost.message.clone()));
        }
    }

    /// The first wrap and its fidelity message when the profile misread
    /// every one judged (and at least one was); `None` otherwise.
    pub(crate) fn every(self) -> Option<(&'static str, String)> {
        match self.lost.len() {
            n if n > 0 && n == self.judged => self.lost.into_iter().next(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(content: &str) -> WrapRequest {
        WrapRequest {
            content: content.into(),
            kind: String::new(),
            attributes: Default::default(),
            provenance: String::new(),
        }
    }

    fn profile(empty: &str) -> TargetProfile {
        TargetProfile::parse(&format!(
            "name: t\nadapter: {{ builtin: reference }}\n\
             delimiters: {{ grammar: xml-tag, token: data }}\nframe: {{ empty: {empty} }}\ncapabilities: [wrap]\n"
        ))
        .unwrap()
    }

    /// Content returned as it is (or, when not blank, with its surrounding
    /// whitespace changed) is unframed; a frame or a preamble around it is
    /// not, nor is content the profile declares to yield nothing.
    #[test]
    fn only_the_content_itself_is_unframed() {
        let framed = profile("frame");
        let short = request("short </data> text");
        assert!(unframed(framed.frame.empty, &short, "short </data> text"));
        assert!(unframed(framed.frame.empty, &short, "short </data> text\n"));
        assert!(!unframed(
            framed.frame.empty,
            &short,
            "<data>\nshort </data> text\n</data>"
        ));
        assert!(!unframed(
            framed.frame.empty,
            &short,
            "Result: short </data> text"
        ));
        assert!(unframed(framed.frame.empty, &request(""), ""));
        assert!(unframed(framed.frame.empty, &request("  \n"), "  \n"));
        assert!(!unframed(framed.frame.empty, &request("  \n"), ""));
        let nothing = profile("blank");
        assert_eq!(nothing.frame.empty, EmptyContent::Blank);
        assert!(!unframed(nothing.frame.empty, &request(""), ""));
        assert!(!unframed(nothing.frame.empty, &request("  \n"), "  \n"));
        assert!(unframed(nothing.frame.empty, &short, "short </data> text"));
    }

    /// The finding is at every level, its class as the delivery says.
    #[test]
    fn an_unframed_output_is_frame_absent_at_every_level() {
        let p = profile("frame");
        let short = request("short </data> text");
        let finding = absent(&p, &short, "short </data> text", Delivery::PromptText).unwrap();
        assert_eq!(finding.check, Check::FrameAbsent);
        assert_eq!(finding.class, CheckClass::Security);
        assert_eq!(finding.levels, ReaderLevel::ALL.to_vec());
        let hosted = absent(&p, &short, "short </data> text", Delivery::HostMessage).unwrap();
        assert_eq!(hosted.class, CheckClass::HostFramed);
        assert!(absent(&p, &short, "<data>short</data>", Delivery::PromptText).is_none());
    }

    /// A framing that frames content of `gate` characters or more, and
    /// returns shorter content as it is; `limit`: longer content fails.
    fn gated(gate: usize, limit: usize) -> impl FnMut(&WrapRequest) -> Result<String, String> {
        move |request| match request.content.chars().count() {
            n if n > limit => Err("too long".into()),
            n if n < gate => Ok(request.content.clone()),
            _ => Ok(format!("<data>\n{}\n</data>", request.content)),
        }
    }

    /// Calibration wraps the usual probes when the framing frames them,
    /// the first longer ones it frames every one of when it does not, and
    /// the usual ones (to fail on) when it frames none or fails on longer
    /// content; a failed wrap of the usual probes is the error.
    #[test]
    fn calibration_lengthens_the_probes_only_as_far_as_the_framing_needs() {
        let usual = layout::probes(&profile("frame"));
        let length = |probes: &Probes| probes.requests()[0].content.chars().count();
        let all_framed = |wraps: &[String]| wraps.iter().all(|w| w.starts_with("<data>"));
        let (probes, wraps) =
            calibrated(EmptyContent::Frame, usual.clone(), gated(0, usize::MAX)).unwrap();
        assert_eq!(length(&probes), length(&usual));
        assert!(all_framed(&wraps));
        for (gate, at_least) in [
            (200, layout::LONGER_PROBES[0]),
            (1_000, layout::LONGER_PROBES[1]),
        ] {
            let (probes, wraps) =
                calibrated(EmptyContent::Frame, usual.clone(), gated(gate, usize::MAX)).unwrap();
            assert!(length(&probes) >= at_least, "gate {gate}");
            assert!(all_framed(&wraps), "gate {gate}: {wraps:?}");
            assert_eq!(
                wraps[0],
                format!("<data>\n{}\n</data>", probes.requests()[0].content)
            );
        }
        for framing in [gated(usize::MAX, usize::MAX), gated(1_000, 700)] {
            let (probes, wraps) = calibrated(EmptyContent::Frame, usual.clone(), framing).unwrap();
            assert_eq!(length(&probes), length(&usual));
            assert_eq!(wraps[0], usual.requests()[0].content);
        }
        let failing = |_: &WrapRequest| Err::<String, _>("down");
        assert_eq!(
            calibrated(EmptyContent::Frame, usual, failing).err(),
            Some("down")
        );
    }

    fn fidelity(message: &str) -> Finding {
        Finding {
            consumer: Default::default(),
            check: Check::Fidelity,
            class: CheckClass::Fidelity,
            levels: Vec::new(),
            message: message.into(),
            excerpt: None,
            in_context: false,
            fault: None,
            live: None,
        }
    }

    /// The profile misreads the benign outputs only when the framing wrote
    /// every judged one intact and every one has a fidelity finding: one
    /// sound wrap, or content the framing rewrote, leaves them case
    /// findings.
    #[test]
    fn only_every_intact_wrap_read_as_lost_is_a_misreading() {
        let p = profile("frame");
        let plain = request("plain words");
        let intact = "<data>\nSource: x\n\nplain words\n</data>";
        let lost = [fidelity(
            "the provenance does not appear verbatim in the header",
        )];
        let mut every = Misread::default();
        every.note("one", &p, &plain, intact, &lost);
        every.note("two", &p, &plain, intact, &lost);
        let (content, message) = every.every().expect("every wrap misread");
        assert_eq!(content, "one");
        assert!(message.contains("provenance"), "{message}");
        let mut one_sound = Misread::default();
        one_sound.note("one", &p, &plain, intact, &lost);
        one_sound.note("two", &p, &plain, intact, &[]);
        assert_eq!(one_sound.every(), None);
        let mut rewritten = Misread::default();
        rewritten.note("one", &p, &plain, "<data>PLAIN WORDS</data>", &lost);
        assert_eq!(rewritten.every(), None);
        assert_eq!(Misread::default().every(), None);
    }
}

/// The layout learned from `probes` made plain ([`Probes::plain`]), and the
/// probes it was learned from; `wrap`'s error when a wrap fails. One-line
/// content first, since a framing may rewrite line breaks; when that comes
/// back written whole twice (a framing that echoes the content's first
/// line, a title, writes all of one-line content twice, and calibration
/// cannot tell a title from a preview), content on two lines
/// ([`Probes::plain_lines`]), whose body is the one place that holds the
/// whole content, as for the usual probes.
pub(crate) fn learn_plain<E>(
    profile: &TargetProfile,
    probes: &Probes,
    mut wrap: impl FnMut(&WrapRequest) -> Result<String, E>,
) -> Result<(Probes, Result<Layout, LayoutError>), E> {
    let empty = profile.frame.empty;
    let (plain, wraps) = calibrated(empty, probes.plain(), &mut wrap)?;
    let learned = layout::learn(profile, &plain, &wraps);
    if !learned.as_ref().is_ok_and(Layout::echoes_whole) {
        return Ok((plain, learned));
    }
    let (lines, wraps) = calibrated(empty, probes.plain_lines(), &mut wrap)?;
    let learned = layout::learn(profile, &lines, &wraps);
    Ok((lines, learned))
}

#[cfg(test)]
mod plain_layout_tests {
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
        let once = layout::learn(&profile, &one, &wraps).expect("learned with an echo");
        assert!(once.echoes_whole());
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
