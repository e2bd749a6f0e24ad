//! The plain benign contents a profile's fit is checked with: the fit check
//! (`fit`), the unmarked run (`unmarked`), the document run (`document`)
//! and `init`'s experiments all plant them, so they live below all four.
//! The layout learned from plain probes is `varying::learn_plain`, since it
//! calibrates through the varying check.

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
