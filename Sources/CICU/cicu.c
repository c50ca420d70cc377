#include "cicu.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/unorm2.h>
#include <unicode/unum.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uscript.h>
#include <unicode/uloc.h>
#include <unicode/uversion.h>

struct mp_text {
    UBreakIterator *words;
    UNumberFormat *spellout;   // default rule set, lenient parse
    UNumberFormat *folded;     // the same rules in matching form (no accents, case folded), lenient parse; may be NULL
    UNumberFormat *language;   // for a regional locale (fr_BE), the language's own rules (fr), lenient; may be NULL
    UNumberFormat *formatter;  // used for formatting with named rule sets
    UChar defaultRuleSet[64];  // the formatter's own default, restored when no rule set is asked for
    UTransliterator *transform;  // optional, applied to matching forms; opened at first use when asked to
    UChar transformID[128];      // its ID ("Traditional-Simplified"), empty for none
    char locale[96];             // the locale the spell-out formats are opened for, at their first use
    int spelloutState;           // 0 not opened yet, 1 open, -1 ICU could not open them
};

/// Copies `text` into `out` (at most `capacity` bytes, NUL-terminated when there is room for one) and returns
/// its whole length.
static int32_t copy_ascii(const char *text, char *out, int32_t capacity) {
    int32_t n = (int32_t)strlen(text);
    if (capacity > 0) {
        int32_t k = n < capacity - 1 ? n : capacity - 1;
        memcpy(out, text, (size_t)k);
        out[k] = 0;
    }
    return n;
}

/// Opens the bundle's transliterator if it has one and it is not open yet.
static UErrorCode open_transform(mp_text *t) {
    UErrorCode err = U_ZERO_ERROR;
    if (!t->transform && t->transformID[0]) t->transform = utrans_openU(t->transformID, -1, UTRANS_FORWARD, NULL, 0, NULL, &err);
    return err;
}

/// The locale's spell-out rules folded like matching forms ("fünf" -> "funf", "dreißig" -> "dreissig"), so
/// that words already in matching form can be parsed. NULL when ICU cannot build it.
static UNumberFormat *open_folded(const UNumberFormat *spellout, const char *locale) {
    UErrorCode err = U_ZERO_ERROR;
    int32_t n = unum_toPattern(spellout, 0, NULL, 0, &err);
    if (n <= 0) return NULL;
    err = U_ZERO_ERROR;
    UChar *rules = malloc(sizeof(UChar) * (size_t)(n + 1));
    if (!rules) return NULL;
    unum_toPattern(spellout, 0, rules, n + 1, &err);
    UNumberFormat *f = NULL;
    // Rules written in ASCII (English, Dutch …) have no accents to lose: the locale's own rules read
    // every matching form already, and a second formatter would only double the work of a failed parse.
    int ascii = 1;
    for (int32_t i = 0; i < n && ascii; i++) if (rules[i] > 0x7F) ascii = 0;
    if (U_SUCCESS(err) && !ascii) {
        int32_t m = mp_fold(rules, n, NULL, 0);
        UChar *out = m > 0 ? malloc(sizeof(UChar) * (size_t)m) : NULL;
        if (out && mp_fold(rules, n, out, m) == m) {
            UParseError pe;
            err = U_ZERO_ERROR;
            f = unum_open(UNUM_PATTERN_RULEBASED, out, m, locale, &pe, &err);
            if (U_FAILURE(err)) { if (f) unum_close(f); f = NULL; }
            else unum_setAttribute(f, UNUM_LENIENT_PARSE, 1);
        }
        free(out);
    }
    free(rules);
    return f;
}

/// Do two spell-out formats have the same rules? (Then asking the second after the first is wasted work.)
static int same_rules(const UNumberFormat *a, const UNumberFormat *b) {
    UErrorCode err = U_ZERO_ERROR;
    int32_t n = unum_toPattern(a, 0, NULL, 0, &err);
    err = U_ZERO_ERROR;
    int32_t m = unum_toPattern(b, 0, NULL, 0, &err);
    if (n <= 0 || n != m) return 0;
    UChar *x = malloc(sizeof(UChar) * (size_t)(n + 1)), *y = malloc(sizeof(UChar) * (size_t)(m + 1));
    int same = 0;
    if (x && y) {
        err = U_ZERO_ERROR;
        unum_toPattern(a, 0, x, n + 1, &err);
        unum_toPattern(b, 0, y, m + 1, &err);
        same = U_SUCCESS(err) && memcmp(x, y, sizeof(UChar) * (size_t)n) == 0;
    }
    free(x);
    free(y);
    return same;
}

static void save_default_rule_set(mp_text *t) {
    UErrorCode err = U_ZERO_ERROR;
    int32_t n = unum_getTextAttribute(t->formatter, UNUM_DEFAULT_RULESET, t->defaultRuleSet, 63, &err);
    t->defaultRuleSet[U_SUCCESS(err) && n < 63 ? n : 0] = 0;
}

static void close_spellout(mp_text *t) {
    if (t->spellout) unum_close(t->spellout);
    if (t->folded) unum_close(t->folded);
    if (t->language) unum_close(t->language);
    if (t->formatter) unum_close(t->formatter);
    t->spellout = t->folded = t->language = t->formatter = NULL;
}

/// Opens the spell-out formats if they are not open yet: at their first use, since a parser whose compiled
/// grammar keeps ICU's answers about numbers may never need them (building them was a tenth of a start).
/// Returns whether they are open.
static int open_spellout(mp_text *t) {
    if (t->spelloutState) return t->spelloutState > 0;
    const char *locale = t->locale;
    UErrorCode err = U_ZERO_ERROR;
    t->spellout = unum_open(UNUM_SPELLOUT, NULL, 0, locale, NULL, &err);
    if (U_SUCCESS(err)) {
        unum_setAttribute(t->spellout, UNUM_LENIENT_PARSE, 1);
        t->folded = open_folded(t->spellout, locale);
        if (t->folded && same_rules(t->folded, t->spellout)) { unum_close(t->folded); t->folded = NULL; }
        // A region's rules may read only the regional forms (fr_BE: septante, not soixante-dix); people
        // there say both, so the language's rules are asked too.
        char language[32];
        UErrorCode lerr = U_ZERO_ERROR;
        int32_t ln = uloc_getLanguage(locale, language, sizeof language, &lerr);
        if (U_SUCCESS(lerr) && ln > 0 && ln < (int32_t)sizeof language && strcmp(language, locale) != 0) {
            lerr = U_ZERO_ERROR;
            t->language = unum_open(UNUM_SPELLOUT, NULL, 0, language, NULL, &lerr);
            if (U_FAILURE(lerr)) { if (t->language) unum_close(t->language); t->language = NULL; }
            else if (same_rules(t->language, t->spellout)) { unum_close(t->language); t->language = NULL; }
            else unum_setAttribute(t->language, UNUM_LENIENT_PARSE, 1);
        }
        t->formatter = unum_open(UNUM_SPELLOUT, NULL, 0, locale, NULL, &err);
        if (U_SUCCESS(err)) save_default_rule_set(t);
    }
    if (U_FAILURE(err)) { close_spellout(t); t->spelloutState = -1; return 0; }
    t->spelloutState = 1;
    return 1;
}

mp_text *mp_text_open(const char *locale, const char *transform, int32_t lazy, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    if (strlen(locale) >= sizeof(((mp_text *)0)->locale)) { *status = U_ILLEGAL_ARGUMENT_ERROR; return NULL; }
    mp_text *t = calloc(1, sizeof(mp_text));
    if (!t) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    strcpy(t->locale, locale);
    t->words = ubrk_open(UBRK_WORD, locale, NULL, 0, &err);
    if (U_SUCCESS(err) && transform && transform[0]) {
        u_uastrncpy(t->transformID, transform, 127);
        t->transformID[127] = 0;
        if (!lazy) err = open_transform(t);
    }
    if (U_FAILURE(err)) { mp_text_close(t); *status = err; return NULL; }
    *status = 0;
    return t;
}

mp_text *mp_text_clone(const mp_text *src, int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    mp_text *t = calloc(1, sizeof(mp_text));
    if (!t) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    t->words = ubrk_clone(src->words, &err);
    memcpy(t->locale, src->locale, sizeof t->locale);
    if (src->spelloutState > 0) {
        // Open in the original: cloned. Not open yet: opened at the clone's first use, like the original's.
        if (U_SUCCESS(err)) t->spellout = unum_clone(src->spellout, &err);
        if (U_SUCCESS(err) && src->folded) t->folded = unum_clone(src->folded, &err);
        if (U_SUCCESS(err) && src->language) t->language = unum_clone(src->language, &err);
        if (U_SUCCESS(err)) t->formatter = unum_clone(src->formatter, &err);
        t->spelloutState = 1;
    }
    if (U_SUCCESS(err) && src->transform) t->transform = utrans_clone(src->transform, &err);
    memcpy(t->transformID, src->transformID, sizeof t->transformID);
    memcpy(t->defaultRuleSet, src->defaultRuleSet, sizeof t->defaultRuleSet);
    if (U_FAILURE(err)) { mp_text_close(t); *status = err; return NULL; }
    *status = 0;
    return t;
}

void mp_text_close(mp_text *t) {
    if (!t) return;
    if (t->words) ubrk_close(t->words);
    close_spellout(t);
    if (t->transform) utrans_close(t->transform);
    free(t);
}

static int32_t word_kind(int32_t status) {
    if (status >= UBRK_WORD_IDEO && status < UBRK_WORD_IDEO_LIMIT) return MP_WORD_IDEO;
    if (status >= UBRK_WORD_KANA && status < UBRK_WORD_KANA_LIMIT) return MP_WORD_KANA;
    if (status >= UBRK_WORD_LETTER && status < UBRK_WORD_LETTER_LIMIT) return MP_WORD_LETTER;
    if (status >= UBRK_WORD_NUMBER && status < UBRK_WORD_NUMBER_LIMIT) return MP_WORD_NUMBER;
    return MP_WORD_NONE;
}

int32_t mp_words(mp_text *t, const uint16_t *chars, int32_t length,
                 int32_t *starts, int32_t *ends, int32_t *kinds, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    ubrk_setText(t->words, (const UChar *)chars, length, &err);
    if (U_FAILURE(err)) return -1;
    int32_t count = 0;
    int32_t start = ubrk_first(t->words);
    for (int32_t end = ubrk_next(t->words); end != UBRK_DONE; start = end, end = ubrk_next(t->words)) {
        if (count < capacity) {
            starts[count] = start;
            ends[count] = end;
            kinds[count] = word_kind(ubrk_getRuleStatus(t->words));
        }
        count++;
    }
    // Do not keep a pointer to the caller's buffer.
    ubrk_setText(t->words, NULL, 0, &err);
    return count;
}

static int is_apostrophe(UChar c) {
    return c == 0x2019 || c == 0x2018 || c == 0x02BC || c == 0x02BB || c == 0x0060 || c == 0x00B4 ||
           c == 0xFF07 || c == 0x2032;
}

/// Normalises src into *buf (growing it as needed). Returns the length, or -1 on error.
static int32_t normalize_into(const UNormalizer2 *norm, const UChar *src, int32_t n,
                              UChar **buf, int32_t *cap, UChar *stack) {
    for (;;) {
        UErrorCode err = U_ZERO_ERROR;
        int32_t m = unorm2_normalize(norm, src, n, *buf, *cap, &err);
        if (err == U_BUFFER_OVERFLOW_ERROR) {
            if (*buf != stack) free(*buf);
            *cap = m + 16;
            *buf = malloc(sizeof(UChar) * (size_t)*cap);
            if (!*buf) return -1;
            continue;
        }
        return U_FAILURE(err) ? -1 : m;
    }
}

int32_t mp_fold(const uint16_t *chars, int32_t length, uint16_t *out, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2 *casefold = unorm2_getNFKCCasefoldInstance(&err);
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&err);
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&err);
    if (U_FAILURE(err) || length < 0) return -1;

    UChar stack1[256], stack2[256], stack3[256];
    UChar *a = stack1, *b = stack2, *c3 = stack3;
    int32_t capA = 256, capB = 256, capC = 256;
    int32_t result = -1;
    int32_t n = normalize_into(casefold, (const UChar *)chars, length, &a, &capA, stack1);
    if (n >= 0) n = normalize_into(nfd, a, n, &b, &capB, stack2);
    if (n >= 0) {
        // Drop non-spacing marks (accents) of Latin, Greek and Cyrillic letters, and fold typographic
        // apostrophes, in place: never grows. Marks of other scripts are part of the letter: kana voicing
        // (か/が, ハ/バ/パ), Devanagari vowel signs, Hebrew points.
        int32_t kept = 0;
        UScriptCode base = USCRIPT_LATIN;
        for (int32_t i = 0; i < n;) {
            UChar32 c;
            U16_NEXT(b, i, n, c);
            if (u_charType(c) == U_NON_SPACING_MARK) {
                if (base == USCRIPT_LATIN || base == USCRIPT_GREEK || base == USCRIPT_CYRILLIC || base == USCRIPT_COMMON) continue;
            } else {
                UErrorCode serr = U_ZERO_ERROR;
                base = uscript_getScript(c, &serr);
            }
            if (c <= 0xFFFF && is_apostrophe((UChar)c)) c = '\'';
            U16_APPEND_UNSAFE(b, kept, c);
        }
        n = normalize_into(nfc, b, kept, &c3, &capC, stack3);
    }
    if (n >= 0) {
        int32_t m = n < capacity ? n : capacity;
        if (m > 0) memcpy(out, c3, sizeof(UChar) * (size_t)m);
        result = n;
    }
    if (a != stack1) free(a);
    if (b != stack2) free(b);
    if (c3 != stack3) free(c3);
    return result;
}

static int parse_whole(UNumberFormat *f, const UChar *chars, int32_t length, double *value) {
    if (!f) return 0;
    UErrorCode err = U_ZERO_ERROR;
    int32_t pos = 0;
    double v = unum_parseDouble(f, chars, length, &pos, &err);
    if (U_FAILURE(err) || pos != length) return 0;
    *value = v;
    return 1;
}

int32_t mp_parse_spellout(mp_text *t, const uint16_t *chars, int32_t length, double *value) {
    const UChar *text = (const UChar *)chars;
    if (!open_spellout(t)) return 0;
    // The locale's own rules (their lenient parse reads "quatre vingt dix" and "twenty first"), then the
    // folded rules for words whose accents the matching form removed ("funfundachtzig", "troisieme"),
    // then the folded rules with hyphens for spaces ("dix septieme").
    if (parse_whole(t->spellout, text, length, value)) return 1;
    if (parse_whole(t->language, text, length, value)) return 1;
    if (!t->folded) return 0;
    if (parse_whole(t->folded, text, length, value)) return 1;
    int spaces = 0;
    for (int32_t i = 0; i < length; i++) if (text[i] == ' ') spaces = 1;
    if (!spaces || length > 512) return 0;
    UChar hyphenated[512];
    for (int32_t i = 0; i < length; i++) hyphenated[i] = text[i] == ' ' ? '-' : text[i];
    return parse_whole(t->folded, hyphenated, length, value);
}

int32_t mp_format_spellout(mp_text *t, double value, const char *ruleSet, uint16_t *out, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    if (!open_spellout(t)) return -1;
    UNumberFormat *f = t->formatter;
    if (ruleSet) {
        UChar name[64];
        u_uastrncpy(name, ruleSet, 63);
        name[63] = 0;
        unum_setTextAttribute(f, UNUM_DEFAULT_RULESET, name, -1, &err);
        if (U_FAILURE(err)) return -1;
    } else if (t->defaultRuleSet[0]) {
        unum_setTextAttribute(f, UNUM_DEFAULT_RULESET, t->defaultRuleSet, -1, &err);
        if (U_FAILURE(err)) return -1;
    }
    int32_t n = unum_formatDouble(f, value, (UChar *)out, capacity, NULL, &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) err = U_ZERO_ERROR;
    return U_FAILURE(err) ? -1 : n;
}

int32_t mp_rule_sets(mp_text *t, char *out, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    if (!open_spellout(t)) return -1;
    UChar buf[2048];
    int32_t n = unum_getTextAttribute(t->formatter, UNUM_PUBLIC_RULESETS, buf, 2048, &err);
    if (U_FAILURE(err) || n >= 2048) return -1;
    if (capacity > 0) {
        int32_t m = n < capacity - 1 ? n : capacity - 1;
        for (int32_t i = 0; i < m; i++) out[i] = buf[i] < 0x80 ? (char)buf[i] : '?';
        out[m] = 0;
    }
    return n;
}

int32_t mp_decimal_separator(const char *locale, uint16_t *out, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    UNumberFormat *f = unum_open(UNUM_DECIMAL, NULL, 0, locale, NULL, &err);
    if (U_FAILURE(err)) return -1;
    int32_t n = unum_getSymbol(f, UNUM_DECIMAL_SEPARATOR_SYMBOL, (UChar *)out, capacity, &err);
    unum_close(f);
    return U_FAILURE(err) ? -1 : n;
}

int32_t mp_has_transform(const mp_text *t) { return t->transformID[0] ? 1 : 0; }

int32_t mp_transform(mp_text *t, uint16_t *chars, int32_t length, int32_t capacity) {
    if (!t->transformID[0]) return length;
    UErrorCode err = open_transform(t);
    if (U_FAILURE(err)) return -1;
    int32_t textLength = length;
    int32_t limit = length;
    utrans_transUChars(t->transform, (UChar *)chars, &textLength, capacity, 0, &limit, &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) return textLength > capacity ? textLength : capacity + 1;
    return U_FAILURE(err) ? -1 : textLength;
}

int32_t mp_actual_locale(const char *locale, char *out, int32_t capacity) {
    UErrorCode err = U_ZERO_ERROR;
    UNumberFormat *f = unum_open(UNUM_SPELLOUT, NULL, 0, locale, NULL, &err);
    if (U_FAILURE(err)) { if (f) unum_close(f); return -1; }
    const char *actual = unum_getLocaleByType(f, ULOC_ACTUAL_LOCALE, &err);
    int32_t n = -1;
    if (U_SUCCESS(err) && actual) n = copy_ascii(actual, out, capacity);
    unum_close(f);
    return n;
}

int32_t mp_icu_version(char *out, int32_t capacity) {
    UVersionInfo version;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_getVersion(version);
    u_versionToString(version, text);
    return copy_ascii(text, out, capacity);
}
