//! Python literals as CPython writes and reads them: `repr` of a string
//! (the `python-literal` body encoding) and the literal subset `repr` writes
//! for a record (the `python-document` grammar's syntax). Below both the
//! grammars and the encodings in the module order, since each uses it and it
//! uses neither.

pub mod python;
pub mod python_value;
