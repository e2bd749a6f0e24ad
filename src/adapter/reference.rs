//! The reference envelope as an in-process target.
