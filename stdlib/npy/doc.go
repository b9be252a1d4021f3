// Package npy reads and writes NumPy's .npy format for gscript's load and
// save builtins, so arrays move between gscript and Python unchanged.
//
// # Supported subset
//
// Dtypes are gscript's: bool ('|b1'), u8 ('|u1'), i32 ('<i4'), i64 ('<i8'),
// u32 ('<u4'), u64 ('<u8'), f32 ('<f4') and f64 ('<f8'). Shapes have 1 to 4
// dimensions; zero extents are fine.
//
// Write produces exactly the bytes np.save produces on a little-endian
// machine: format version 1.0 (2.0 only if the header could not fit a
// 16-bit length, which cannot happen for 4 dimensions), the header dict
// with sorted keys and a trailing ", ", NumPy's growth padding of spaces
// after the dict (GROWTH_AXIS_MAX_DIGITS = 21), then spaces and a newline
// so that the data starts at a multiple of 64 bytes; data in C order,
// little-endian.
//
// Read accepts versions 1.0, 2.0 and 3.0; the byte orders '<', '>', '='
// and '|', and no byte-order character at all ('f4'); the bool alias '?'
// and 'B' for u8; C and Fortran order. Big-endian data is swapped and
// Fortran-order data transposed, so Read always returns C-contiguous
// little-endian bytes. The header is parsed, never evaluated: a small
// parser for Python literals (single or double quoted strings, ints with
// an optional Python 2 'L' suffix, True/False/None, tuples, lists, dicts,
// trailing commas, any spacing).
//
// Everything else is an error value naming what was found: other dtypes
// ("unsupported dtype '<c16' (complex128)"), structured dtypes other than
// little-endian C-order records of those types (record.go), 0-d and
// more-than-4-d arrays, bad magic, unknown versions, truncated headers or
// data, headers that are not a dict, missing, unknown or duplicate keys,
// negative dimensions, and shapes over 2^47 elements.
//
// # Decisions where the format or the design was silent
//
//   - '=' (native) and '|' (not applicable) are read as little-endian: every
//     platform gscript runs on is little-endian, and NumPy itself always
//     writes an explicit '<' or '>' for multi-byte types.
//   - Headers longer than 64 KiB are refused before they are read (NumPy's
//     own reader refuses more than 10000 bytes by default); a header for a
//     supported array is under 200 bytes.
//   - Read reads data in chunks that grow as bytes arrive, so a header that
//     lies about the shape costs at most what the file really holds.
//     Shapes over 2^47 elements (runtime/mem's limit) are refused outright.
//     gscript's load instead calls ReadHeader, checks the claim against the
//     file's size (CheckSize) and reads the data straight into the array,
//     converting it with Layout.Decode and FortranToC.
//   - A file without the magic is reported without its first bytes: load
//     may be pointed at any file, and errors must not disclose contents.
//   - Bytes after the data are ignored, as np.load ignores them.
//   - Keys other than descr, fortran_order and shape are an error, as in
//     NumPy; so is a shape given as a list rather than a tuple.
//   - Errors start with "npy: " and carry no position: the caller (load,
//     save) adds the script position and the file name.
package npy
