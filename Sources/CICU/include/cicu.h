// A plain-C window onto the few ICU services MediaParse uses.
//
// Only <stdint.h> types cross this boundary: Swift on Linux cannot import ICU's own headers next to
// Foundation (which carries a private ICU with clashing declarations), and ICU renames its symbols per
// version, which hides them from Swift. Everything ICU-specific stays in cicu.c.
#ifndef MEDIAPARSE_CICU_H
#define MEDIAPARSE_CICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Word classes reported by `mp_words` (ICU's rule status ranges, folded to four kinds).
enum {
    MP_WORD_NONE = 0,    // spaces, punctuation, symbols
    MP_WORD_NUMBER = 1,  // digits, possibly with separators ("89.1", "1,000")
    MP_WORD_LETTER = 2,  // alphabetic words
    MP_WORD_KANA = 3,    // hiragana / katakana
    MP_WORD_IDEO = 4     // ideographic words (Chinese, kanji)
};

/// An opaque per-locale bundle: a word break iterator and a spell-out number format.
/// Not thread-safe; use `mp_text_clone` to get one per thread.
typedef struct mp_text mp_text;

/// Opens the bundle for `locale` (ICU form, "en_US"). `transform` is an ICU transliterator ID applied to
/// the matching form of words ("Traditional-Simplified"), or NULL. With `lazy` non-zero the transliterator
/// is opened at its first use instead (opening one takes ICU some 14 ms), and an ID ICU does not know is
/// only found out then (`mp_transform` returns -1). The spell-out formats are always opened at their first
/// use (`mp_parse_spellout`, `mp_format_spellout`, `mp_rule_sets`; building them is a tenth of a start-up,
/// and a parser whose grammar keeps ICU's answers about numbers may never need them); if ICU cannot open
/// them, those calls fail. Returns NULL and a non-zero ICU error code in `*status` on failure.
mp_text *mp_text_open(const char *locale, const char *transform, int32_t lazy, int32_t *status);
/// A copy that may be used on another thread.
mp_text *mp_text_clone(const mp_text *text, int32_t *status);
void mp_text_close(mp_text *text);

/// Splits UTF-16 `chars[0..<length]` into words. For each segment (spaces and punctuation included)
/// writes its start, end and kind (MP_WORD_…). Returns the number of segments, which may exceed
/// `capacity` (then only `capacity` were written, call again with more room).
int32_t mp_words(mp_text *text, const uint16_t *chars, int32_t length,
                 int32_t *starts, int32_t *ends, int32_t *kinds, int32_t capacity);

/// Matching form of a string: NFKC case folding, then non-spacing marks removed (accents), then
/// typographic apostrophes mapped to "'". Returns the length needed; writes at most `capacity`.
/// Returns -1 on an ICU error.
int32_t mp_fold(const uint16_t *chars, int32_t length, uint16_t *out, int32_t capacity);

/// Parses the whole of `chars` as a spelled-out number ("eighty-one", "quatre-vingt-un",
/// "twenty-first") with the locale's rule-based number format, leniently. Returns 1 and stores the
/// value when every character was consumed, 0 otherwise.
int32_t mp_parse_spellout(mp_text *text, const uint16_t *chars, int32_t length, double *value);

/// Formats `value` with one of the spell-out rule sets ("%spellout-cardinal", "%spellout-ordinal",
/// "%spellout-numbering-year", or NULL for the default). Returns the length needed (-1 on error or an
/// unknown rule set); writes at most `capacity`.
int32_t mp_format_spellout(mp_text *text, double value, const char *ruleSet,
                           uint16_t *out, int32_t capacity);

/// The names of the locale's public spell-out rule sets, separated by ';' ("%spellout-cardinal;…").
/// Returns the length needed (-1 on error); writes at most `capacity` bytes (ASCII), NUL-terminated when
/// there is room.
int32_t mp_rule_sets(mp_text *text, char *out, int32_t capacity);

/// The locale's decimal separator (UTF-16, usually one unit). Returns its length (-1 on error).
int32_t mp_decimal_separator(const char *locale, uint16_t *out, int32_t capacity);

/// Applies the bundle's transliterator (see `mp_text_open`) to `chars` in place when it has one. Returns
/// the new length (may exceed `capacity`: call again with more room), or `length` unchanged when the bundle
/// has none, or -1 on error.
int32_t mp_transform(mp_text *text, uint16_t *chars, int32_t length, int32_t capacity);

/// 1 when the bundle has a transliterator (opened or not yet).
int32_t mp_has_transform(const mp_text *text);

/// The locale whose data ICU actually uses for spell-out numbers when asked for `locale` (ICU form):
/// a mistyped name ("de_DF" is fine, "ge_DE" is not) silently falls back to another language's data.
/// Writes the name (ASCII, NUL-terminated when there is room) and returns its length, -1 on error.
int32_t mp_actual_locale(const char *locale, char *out, int32_t capacity);

/// The version of ICU's data and code in use ("72.1"): what it answers (word breaks, spell-out) may change
/// from one version to the next. Writes the version (ASCII, NUL-terminated when there is room) and returns
/// its length.
int32_t mp_icu_version(char *out, int32_t capacity);

#ifdef __cplusplus
}
#endif
#endif
