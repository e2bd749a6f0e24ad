// Shared helpers for the Node shape fixtures: a Unicode-aware neutraliser,
// attribute escaping, and a protocol loop that also answers `wrap-many`.
//
// A correct framing must neutralise every spelling of its delimiter that a
// reader at framecheck's `unicode` level takes for it (see crates/core/src/level.rs):
// default-ignorable and format characters read as nothing, everything else
// is NFKC-normalised and case-folded, and a non-ASCII character whose Unicode
// confusables skeleton is one delimiter character reads as it. Written from
// those documented rules; no dependencies.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const IGNORABLE_RANGES = [
	[0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x0600, 0x0605], [0x06dd, 0x06dd],
	[0x070f, 0x070f], [0x0890, 0x0891], [0x08e2, 0x08e2], [0x115f, 0x1160], [0x17b4, 0x17b5],
	[0x180b, 0x180f], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164],
	[0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfffb], [0x110bd, 0x110bd],
	[0x110cd, 0x110cd], [0x13430, 0x1343f], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
]

export function isIgnorable(ch) {
	const cp = ch.codePointAt(0)
	return /\p{Cf}/u.test(ch) || IGNORABLE_RANGES.some(([lo, hi]) => lo <= cp && cp <= hi)
}

// The confusables data (UTS #39, through the `unicode-security` crate
// framecheck pins): every non-ASCII character whose skeleton is one printable
// ASCII character. `confusables.tsv` is the table framecheck's build computes.
// The ASCII punctuation that occurs in delimiters; letters and digits too.
export const DELIMITER_PUNCTUATION = '<>/[]=-_`~#:*|'
// Brackets and dashes read as ASCII that the data does not cover.
const BEYOND_UTS39 = [['⟨〈❬⧼', '<'], ['⟩〉❭⧽', '>'], ['⁅〔⟦', '['], ['⁆〕⟧', ']'], ['—―╴', '-']]

// Non-ASCII characters that read as an ASCII delimiter character.
export const LOOKALIKES = new Map()
for (const line of readFileSync(new URL('./confusables.tsv', import.meta.url), 'utf8').split('\n')) {
	if (line === '' || line.startsWith('#')) continue
	const [code, ascii] = line.split('\t')
	if (/[A-Za-z0-9]/.test(ascii) || DELIMITER_PUNCTUATION.includes(ascii)) {
		LOOKALIKES.set(String.fromCodePoint(parseInt(code, 16)), ascii.toLowerCase())
	}
}
for (const [chars, ascii] of BEYOND_UTS39) {
	for (const ch of chars) if (!LOOKALIKES.has(ch)) LOOKALIKES.set(ch, ascii)
}

// Characters whose compatibility mappings came with Unicode 15 to 17, which
// a runtime's normalisation data may predate: outlined letters and digits,
// subscript letters, Cyrillic modifier letters (read through the lookalike
// table), a modifier S and two sharp-s forms. The reader level folds them to
// these ASCII strings.
export const NEWER_UNICODE = new Map()
for (let i = 0; i < 26; i++) NEWER_UNICODE.set(String.fromCodePoint(0x1ccd6 + i), String.fromCharCode(97 + i))
for (let i = 0; i < 10; i++) NEWER_UNICODE.set(String.fromCodePoint(0x1ccf0 + i), String(i))
for (const [cp, ascii] of [
	[0x209d, 'w'], [0x209e, 'y'], [0x209f, 'z'], [0xa7f1, 's'], [0x1d6a6, 'ss'], [0x1df95, 'ss'],
	[0x1e030, 'a'], [0x1e032, 'b'], [0x1e035, 'e'], [0x1e039, 'k'], [0x1e03b, 'm'], [0x1e03c, 'o'],
	[0x1e03e, 'p'], [0x1e03f, 'c'], [0x1e040, 't'], [0x1e041, 'y'], [0x1e043, 'x'], [0x1e04c, 'i'],
	[0x1e04d, 'j'], [0x1e050, 'l'], [0x1e051, 'a'], [0x1e053, 'b'], [0x1e056, 'e'], [0x1e05a, 'k'],
	[0x1e05c, 'o'], [0x1e05e, 'c'], [0x1e05f, 'y'], [0x1e061, 'x'], [0x1e068, 'i'], [0x1e069, 's'],
	// Unicode 17 and 18, read through the confusables data: an Armenian and a Latin letter.
	[0x058c, 'j'], [0x1dfd0, 'y'],
]) {
	NEWER_UNICODE.set(String.fromCodePoint(cp), ascii)
}

// Full case folding, approximated by lower, upper, then lower case: it maps
// ẞ and ß to ss, long s to s and final sigma to sigma, as CaseFolding.txt does.
// Cherokee is the exception: CaseFolding.txt folds its small letters
// (U+13F8-U+13FD, U+AB70-U+ABBF) to the capitals, which are the older ones.
const CHEROKEE_SMALL = /[\u13f8-\u13fd\uab70-\uabbf]/gu
const caseFold = (s) =>
	s.toLowerCase().toUpperCase().toLowerCase().replace(CHEROKEE_SMALL, (c) => c.toUpperCase())

/** What a Unicode-level reader sees for one character (maybe '' or several). */
export function foldChar(ch) {
	if (ch.codePointAt(0) < 0x80) return ch.toLowerCase()
	if (isIgnorable(ch)) return ''
	if (NEWER_UNICODE.has(ch)) return NEWER_UNICODE.get(ch)
	const folded = Array.from(caseFold(ch.normalize('NFKC')).normalize('NFKC')).filter((d) => !isIgnorable(d))
	// Case first (Greek capital iota reads as i), the character itself when
	// its one folded character is no lookalike (Cyrillic capital ve is B).
	if (folded.length === 1 && folded[0].codePointAt(0) >= 0x80 && !LOOKALIKES.has(folded[0])) {
		return LOOKALIKES.get(ch) ?? folded[0]
	}
	return folded.map((d) => LOOKALIKES.get(d) ?? d).join('')
}

export const fold = (text) => Array.from(text, foldChar).join('')

/** Spans [start, end) of code-point indices of `chars` that read as `token`. */
export function readings(chars, token) {
	const needle = Array.from(fold(token))
	const folded = []
	chars.forEach((ch, i) => {
		for (const f of foldChar(ch)) folded.push([f, i])
	})
	const spans = []
	let i = 0
	while (needle.length && i + needle.length <= folded.length) {
		if (needle.every((n, k) => folded[i + k][0] === n)) {
			const start = folded[i][1]
			const end = folded[i + needle.length - 1][1] + 1
			const last = spans[spans.length - 1]
			if (last && start < last[1]) last[1] = Math.max(last[1], end)
			else spans.push([start, end])
			i += needle.length
		} else i += 1
	}
	return spans
}

/** Replaces every reading of `token` in `text` with `replacement`; nothing else changes. */
export function defang(text, token, replacement) {
	if (readings(Array.from(replacement), token).length) throw new Error('replacement reads as the token')
	for (let round = 0; round < 16; round++) {
		const chars = Array.from(text)
		const spans = readings(chars, token)
		if (!spans.length) return text
		let out = ''
		let at = 0
		for (const [start, end] of spans) {
			out += chars.slice(at, start).join('') + replacement
			at = end
		}
		text = out + chars.slice(at).join('')
	}
	throw new Error('defang did not converge')
}

// Every character some reader level takes as a line break.
export const LINE_BREAKS = '\r\n\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029'

/** Escapes a double-quoted attribute value: & " < > and every line break. */
export function escapeAttribute(value) {
	const named = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' }
	return Array.from(value, (ch) =>
		named[ch] ?? (LINE_BREAKS.includes(ch) ? `&#${ch.codePointAt(0)};` : ch),
	).join('')
}

/** Why these attribute keys cannot be written, or null when they can. */
export function attributeKeysProblem(attributes, token, reserved = ['kind']) {
	const seen = new Set(reserved.map((k) => k.toLowerCase()))
	for (const key of Object.keys(attributes)) {
		if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(key)) return `attribute key ${JSON.stringify(key)} is not a plain name`
		if (seen.has(key.toLowerCase())) return `attribute key ${JSON.stringify(key)} duplicates another attribute`
		if (readings(Array.from(key), token).length) return `attribute key ${JSON.stringify(key)} reads as the tag name`
		seen.add(key.toLowerCase())
	}
	return null
}

/** ` kind="…" key="…"…`: every value defanged and escaped, keys sorted. */
export function tagAttributes(kind, attributes, token, replacement) {
	const value = (v) => escapeAttribute(defang(v, token, replacement))
	let out = ` kind="${value(kind)}"`
	for (const key of Object.keys(attributes).sort()) out += ` ${key}="${value(attributes[key])}"`
	return out
}

/** The framing rejects this input on purpose; the message says why. */
export class Refusal extends Error {}

async function answer(request, { wrap, wrapMany, read }) {
	if (request === null || typeof request !== 'object' || Array.isArray(request))
		return { id: null, error: 'invalid request: not a JSON object' }
	const { id = null, op } = request
	const item = (r) => ({
		content: r.content,
		kind: r.kind ?? '',
		attributes: r.attributes ?? {},
		provenance: r.provenance ?? '',
	})
	try {
		if (op === 'wrap' && typeof request.content === 'string') return { id, framed: wrap(item(request)) }
		if (op === 'wrap-many' && wrapMany && Array.isArray(request.items)) {
			if (!request.items.every((r) => r && typeof r.content === 'string'))
				return { id, error: 'invalid request: every item needs a string content' }
			return { id, framed: wrapMany(request.items.map(item)) }
		}
		if (op === 'read' && read && typeof request.text === 'string') return { id, body: read(request.text) ?? null }
	} catch (e) {
		if (e instanceof Refusal) return { id, error: e.message || 'refused' }
		throw e
	}
	return { id, error: `unsupported or malformed op ${JSON.stringify(op)}` }
}

/** Answers wrap, wrap-many (when given) and read (when given) until stdin closes. */
export async function serve(framing) {
	const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
	for await (const line of lines) {
		if (line.trim() === '') continue
		let request
		try {
			request = JSON.parse(line)
		} catch (e) {
			process.stdout.write(JSON.stringify({ id: null, error: `invalid request: ${e.message}` }) + '\n')
			continue
		}
		process.stdout.write(JSON.stringify(await answer(request, framing)) + '\n')
	}
}
