/*
 * icu_root_dump.c: a Node.js native module that, when loaded, writes what tools/gen_locale_collation.py
 * needs from the ICU built into the running `node` binary and then does nothing else:
 *   - the ICU, Unicode and UCA versions;
 *   - every contraction of the root collator (ucol_getContractionsAndExpansions, prefixes included),
 *     as UTF-16 code units;
 *   - for every code point with a canonical combining class or a canonical decomposition: the class
 *     and the full canonical decomposition (NFD), as UTF-16 code units.
 * It uses only the ICU C API that Node exports (symbols suffixed with ICU's major version, 78 here,
 * see ICU_SUFFIX) and no N-API call: the output goes to the file named by $ICU_DUMP_OUT.
 * Build: cc -shared -fPIC -o icu_root_dump.node icu_root_dump.c   (the generator does this)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ICU_SUFFIX
#define ICU_SUFFIX _78
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define ICU(name) CAT(name, ICU_SUFFIX)

typedef uint16_t UChar;
typedef int UErrorCode;
typedef struct UCollator UCollator;
typedef struct USet USet;
typedef struct UNormalizer2 UNormalizer2;
typedef uint8_t UVersionInfo[4];

UCollator *ICU(ucol_open)(const char *locale, UErrorCode *status);
void ICU(ucol_getContractionsAndExpansions)(const UCollator *coll, USet *contractions, USet *expansions,
                                              int addPrefixes, UErrorCode *status);
void ICU(ucol_getUCAVersion)(const UCollator *coll, UVersionInfo info);
void ICU(u_getUnicodeVersion)(UVersionInfo info);
void ICU(u_getVersion)(UVersionInfo info);
USet *ICU(uset_openEmpty)(void);
int32_t ICU(uset_getItemCount)(const USet *set);
int32_t ICU(uset_getItem)(const USet *set, int32_t index, int32_t *start, int32_t *end, UChar *str,
                          int32_t capacity, UErrorCode *status);
const UNormalizer2 *ICU(unorm2_getNFDInstance)(UErrorCode *status);
uint8_t ICU(unorm2_getCombiningClass)(const UNormalizer2 *norm2, int32_t c);
int32_t ICU(unorm2_getDecomposition)(const UNormalizer2 *norm2, int32_t c, UChar *decomposition,
                                     int32_t capacity, UErrorCode *status);

static void write_units(FILE *out, const UChar *units, int32_t length) {
    for (int32_t i = 0; i < length; i++) fprintf(out, " %04X", units[i]);
}

static void write_version(FILE *out, const char *what, const UVersionInfo v) {
    fprintf(out, "%s %d.%d.%d\n", what, v[0], v[1], v[2]);
}

void *napi_register_module_v1(void *env, void *exports) {
    UErrorCode status = 0;
    UVersionInfo version;
    const char *path = getenv("ICU_DUMP_OUT");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (out == NULL) return exports;
    UCollator *root = ICU(ucol_open)("", &status);
    ICU(u_getVersion)(version);
    write_version(out, "icu", version);
    ICU(u_getUnicodeVersion)(version);
    write_version(out, "unicode", version);
    ICU(ucol_getUCAVersion)(root, version);
    write_version(out, "uca", version);
    USet *contractions = ICU(uset_openEmpty)(), *expansions = ICU(uset_openEmpty)();
    ICU(ucol_getContractionsAndExpansions)(root, contractions, expansions, 1, &status);
    int32_t count = ICU(uset_getItemCount)(contractions);
    for (int32_t i = 0; i < count; i++) {
        int32_t start, end;
        UChar units[64];
        UErrorCode item_status = 0;
        int32_t length = ICU(uset_getItem)(contractions, i, &start, &end, units, 64, &item_status);
        if (length > 0 && item_status <= 0) {
            fprintf(out, "contraction");
            write_units(out, units, length);
            fprintf(out, "\n");
        } else {
            fprintf(out, "error contraction item %d\n", i);
        }
    }
    const UNormalizer2 *nfd = ICU(unorm2_getNFDInstance)(&status);
    for (int32_t c = 0; c <= 0x10FFFF; c++) {
        UChar units[32];
        UErrorCode item_status = 0;
        uint8_t ccc = ICU(unorm2_getCombiningClass)(nfd, c);
        int32_t length = ICU(unorm2_getDecomposition)(nfd, c, units, 32, &item_status);
        if (ccc == 0 && length < 0) continue;
        fprintf(out, "char %X %d", c, ccc);
        if (length >= 0) write_units(out, units, length);
        fprintf(out, "\n");
    }
    fprintf(out, "status %d\n", status);
    fclose(out);
    return exports;
}
