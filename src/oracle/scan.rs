//! The oracle's own matcher: where a text contains live delimiters at a
//! reader level. Slow and simple on purpose.
