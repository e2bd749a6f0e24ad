//! Conformance reports.
