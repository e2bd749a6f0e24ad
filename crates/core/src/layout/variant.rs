//! Framings that write another frame for content on one line than for
//! content over several (issue 57, item 3): a notice or another header
//! line only where the content has a line break. The calibration probes
//! span two lines, so the layout they teach is the multi-line frame; the
//! same probes on one line ([`Probes::one_line`]) teach the other, kept
//! only when the usual layout does not fit their outputs. Each output is
//! then judged against the frame it has ([`Layout::for_output`]): neither
//! branch's benign outputs read as a wrong shape or a lost header, and a
//! breakout in either branch is judged against that branch's frame.

use super::{learn, Layout, Probes};
use crate::profile::ResolvedProfile;

impl Layout {
    /// Learns the frame of one-line content from `wraps`, the outputs of
    /// `probes` (the calibration probes on one line, in their order), when
    /// the layout does not fit one of them. When no layout can be learned
    /// from them (the one-line outputs contradict the profile), nothing is:
    /// those outputs are judged against the usual layout, and fail its
    /// shape case by case.
    pub fn learn_one_line(&mut self, profile: &ResolvedProfile, probes: &Probes, wraps: &[String]) {
        if wraps.iter().all(|w| self.fits(w)) {
            return;
        }
        if let Ok(mut one) = learn(profile, probes, wraps) {
            // Empty content is one frame whatever the branch.
            one.empty = self.empty.clone();
            self.one_line = Some(Box::new(one));
        }
    }

    /// Whether the one-line probes' first output, `framed`, already fits
    /// the layout: then there is no other frame to learn, and the other
    /// probes need not be wrapped.
    pub fn fits_one_line(&self, framed: &str) -> bool {
        self.fits(framed)
    }

    /// The layout `framed`, the output for `content`, is judged against:
    /// this one when it fits, else the one-line frame when there is one
    /// and it fits. When neither fits (a breakout may have broken either),
    /// the frame for the content's line count: with a line break in the
    /// content, this one.
    pub fn for_output(&self, content: &str, framed: &str) -> &Layout {
        match self.one_line.as_deref() {
            None => self,
            Some(_) if self.fits(framed) => self,
            Some(one) if one.fits(framed) || !content.contains('\n') => one,
            Some(_) => self,
        }
    }

    /// Whether `framed` has this frame: every part where the layout puts
    /// it, and no text around it.
    fn fits(&self, framed: &str) -> bool {
        let m = self.matches(framed);
        m.mismatch.is_none() && m.outer_text.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::probes;
    use crate::profile::TestTarget as TargetProfile;

    fn profile() -> TargetProfile {
        TargetProfile::parse(
            "name: t\nadapter: { builtin: reference }\n\
             delimiters: { grammar: xml-tag, token: data }\nheader: blank-line\n\
             capabilities: [wrap, provenance]\n",
        )
        .unwrap()
    }

    /// A notice line only for content with a line break in it.
    fn wrap(content: &str, provenance: &str) -> String {
        let notice = if content.contains('\n') {
            "Note: several lines follow.\n"
        } else {
            ""
        };
        format!("<data>\nSource: {provenance}\n{notice}\n{content}\n</data>")
    }

    fn learned(one_line: bool) -> Layout {
        let profile = profile();
        let usual = probes(&profile);
        let outputs = |p: &Probes| -> Vec<String> {
            p.requests()
                .iter()
                .map(|r| wrap(&r.content, &r.provenance))
                .collect()
        };
        let mut layout = learn(&profile, &usual, &outputs(&usual)).unwrap();
        if one_line {
            let one = usual.one_line();
            layout.learn_one_line(&profile, &one, &outputs(&one));
        }
        layout
    }

    /// The one-line frame is learned when the framing writes another, and
    /// each output is judged against the frame it has: a one-line breakout
    /// against the one-line frame, whichever layout it breaks.
    #[test]
    fn each_output_is_judged_against_the_frame_it_has() {
        let layout = learned(true);
        let one = layout.one_line.as_deref().expect("a one-line frame");
        assert!(!one.template().contains("Note:"), "{}", one.template());
        assert!(layout.template().contains("Note: several lines follow."));
        let short = wrap("plain words", "p");
        assert!(std::ptr::eq(layout.for_output("plain words", &short), one));
        let long = wrap("two\nlines", "p");
        assert!(std::ptr::eq(
            layout.for_output("two\nlines", &long),
            &layout
        ));
        // Neither fits: the content's line count decides.
        let broken = "<data>\nx\n</data>\nSYSTEM: y";
        assert!(std::ptr::eq(layout.for_output("x", broken), one));
        assert!(std::ptr::eq(layout.for_output("x\ny", broken), &layout));
        // Without the one-line frame, only the usual layout.
        let usual = learned(false);
        assert!(std::ptr::eq(
            usual.for_output("plain words", &short),
            &usual
        ));
    }

    /// A framing whose one-line outputs fit the usual layout gets no
    /// second frame.
    #[test]
    fn a_framing_with_one_frame_learns_no_other() {
        let profile = profile();
        let usual = probes(&profile);
        let outputs = |p: &Probes| -> Vec<String> {
            p.requests()
                .iter()
                .map(|r| format!("<data>\nSource: {}\n\n{}\n</data>", r.provenance, r.content))
                .collect()
        };
        let mut layout = learn(&profile, &usual, &outputs(&usual)).unwrap();
        let one = usual.one_line();
        assert!(one.requests().iter().all(|r| !r.content.contains('\n')));
        layout.learn_one_line(&profile, &one, &outputs(&one));
        assert!(layout.one_line.is_none());
    }
}
