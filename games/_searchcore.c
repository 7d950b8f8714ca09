/* The solver's search, compiled (docs/RULES.md, "Hints"; games/solver.py, ``_explore``).

   The same depth-first search as games/solver.py's pure-Python ``_explore``, move for move:
   the same move generation (``_moves``), the same scores (``_score``), the same order of
   children (by score, then by the bytes of the position, as Python sorts the tuples), the
   same rule when a position is seen again by a shorter way, the same count of positions
   and the same nearest best position.  The Python search is the reference: the tests run
   both on thousands of positions and compare every field (tests/engine/test_search_core.py).

   A layout is the engine's: rows of ``stride`` bytes, a card's number or the gap or a wall.
   The tables the search reads (the next card of each card, the heads of a row's run, the
   2s, the rows' starts) are the engine's, given once by ``configure`` from games/solver.py,
   so that each rule is decided in one place. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LEN 56 /* a layout's bytes: 4 rows of 14 (games/engine.py, STRIDE); constant, so that copies and
                  comparisons of positions compile to a few vector instructions */
#define CARDS 64 /* card codes are below this */
#define ROWS 4
#define GAPS 4
#define MAX_MOVES 16

enum { EVERY = 0, GREEDY = 1, PATIENT = 2 };

static int configured = 0;
static int STRIDE, WIDE, GAP;
static int NEXT[256];
static unsigned char HEAD[256];
static int TWOS[4];
static int ROW_START[ROWS];
/* Zobrist hashing: a position's hash is the XOR of a random word for each card's slot and each
   gap's, so that a move updates its parent's hash with four XORs instead of reading 56 bytes. */
static uint64_t ZOBRIST_CARD[LEN][CARDS], ZOBRIST_GAP[LEN];

typedef struct {
    unsigned char key[LEN];
    uint64_t hash;
    int32_t parent; /* index of the parent entry, -1 for the start */
    int32_t depth;
    unsigned char card, src, gap;
} Entry;

typedef struct {
    Entry *entries;
    size_t count, capacity;
    uint64_t *table; /* open addressing: (entry index + 1) << 32 | the key's hash's top half; 0 when empty */
    size_t table_size;
} Seen;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t hash_layout(const unsigned char *layout) {
    uint64_t h = 0;
    for (int i = 0; i < LEN; i++) {
        if (layout[i] == GAP)
            h ^= ZOBRIST_GAP[i];
        else if (layout[i] < CARDS)
            h ^= ZOBRIST_CARD[i][layout[i]];
    }
    return h;
}

/* The hash of the child where ``card`` moved from ``src`` to ``gap``. */
static inline uint64_t hash_after(uint64_t h, int card, int src, int gap) {
    return h ^ ZOBRIST_CARD[src][card] ^ ZOBRIST_GAP[src] ^ ZOBRIST_GAP[gap] ^ ZOBRIST_CARD[gap][card];
}

/* A table for a search of ``budget`` positions: room at first for about two children a position
   (what searches from deals see), so that a search seldom grows it; at most 4M slots at once. */
static int seen_init(Seen *seen, long long budget) {
    size_t size = 4096;
    while (size < 4 * (size_t)(budget < 0 ? 0 : budget) && size < ((size_t)1 << 22)) size *= 2;
    seen->capacity = size / 2;
    seen->count = 0;
    seen->entries = malloc(seen->capacity * sizeof(Entry));
    seen->table_size = size;
    seen->table = calloc(seen->table_size, sizeof(uint64_t));
    return seen->entries && seen->table;
}

static void seen_free(Seen *seen) {
    free(seen->entries);
    free(seen->table);
}

static inline int same_layout(const unsigned char *a, const unsigned char *b) {
    uint64_t diff = 0;
    for (int i = 0; i < LEN; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    return !diff;
}

/* The entry of ``key``, or -1. */
static int64_t seen_find(const Seen *seen, const unsigned char *key, uint64_t h) {
    size_t mask = seen->table_size - 1, i = h & mask;
    uint32_t tag = (uint32_t)(h >> 32);
    for (;;) {
        uint64_t slot = seen->table[i];
        if (!slot) return -1;
        int64_t e = (int64_t)(slot >> 32) - 1;
        if ((uint32_t)slot == tag && same_layout(seen->entries[e].key, key)) return e;
        i = (i + 1) & mask;
    }
}

static int seen_grow(Seen *seen) {
    if (seen->count + 1 > seen->capacity) {
        size_t capacity = seen->capacity * 2;
        Entry *entries = realloc(seen->entries, capacity * sizeof(Entry));
        if (!entries) return 0;
        seen->entries = entries;
        seen->capacity = capacity;
    }
    if ((seen->count + 1) * 2 > seen->table_size) {
        size_t size = seen->table_size * 2, mask = size - 1;
        uint64_t *table = calloc(size, sizeof(uint64_t));
        if (!table) return 0;
        for (size_t e = 0; e < seen->count; e++) {
            uint64_t h = seen->entries[e].hash;
            size_t i = h & mask;
            while (table[i]) i = (i + 1) & mask;
            table[i] = ((uint64_t)(e + 1) << 32) | (h >> 32);
        }
        free(seen->table);
        seen->table = table;
        seen->table_size = size;
    }
    return 1;
}

/* Add ``key`` (not seen yet); its entry's index, or -1 when memory runs out. */
static int64_t seen_add(Seen *seen, const unsigned char *key, uint64_t h, int32_t parent, int32_t depth,
                        int card, int src, int gap) {
    if (!seen_grow(seen)) return -1;
    size_t e = seen->count++, mask = seen->table_size - 1, i = h & mask;
    Entry *entry = &seen->entries[e];
    memcpy(entry->key, key, LEN);
    entry->hash = h;
    entry->parent = parent;
    entry->depth = depth;
    entry->card = (unsigned char)card;
    entry->src = (unsigned char)src;
    entry->gap = (unsigned char)gap;
    while (seen->table[i]) i = (i + 1) & mask;
    seen->table[i] = ((uint64_t)(e + 1) << 32) | (h >> 32);
    return (int64_t)e;
}

/* ``items`` (``*cap`` of ``size`` bytes) with room for ``need``, its capacity doubled as often as that
   takes; NULL when memory runs out, ``items`` and ``*cap`` then unchanged. */
static void *reserve(void *items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return items;
    size_t grown_cap = *cap;
    while (grown_cap < need) grown_cap *= 2;
    void *grown = realloc(items, grown_cap * size);
    if (grown) *cap = grown_cap;
    return grown;
}

static int run_of(const unsigned char *layout, int start) {
    if (!HEAD[layout[start]]) return 0;
    int i = start + 1, end = start + WIDE;
    while (i < end && layout[i] == NEXT[layout[i - 1]]) i++;
    return i - start;
}

/* Where each card of ``layout`` is.  Every position of a search holds the same cards, so a
   value that is on no table of it keeps the 255 (not on the table) it was given at the start;
   the gap's and the wall's entries are never read. */
static void place_cards(const unsigned char *layout, unsigned char *where) {
    for (int i = 0; i < LEN; i++) where[layout[i]] = (unsigned char)i;
}

/* The first slot of ``value`` in the child of a position whose cards are ``where``, after ``card``
   moved from ``src`` to ``gap`` (as bytes.find on the child's layout). */
static int child_find(const unsigned char *where, int value, int card, int gap) {
    if (value < 0 || value > 255) return -1;
    if (value == card) return gap;
    return where[value] == 255 ? -1 : where[value];
}

static int score_of(const unsigned char *layout, const int *runs, int full, const unsigned char *where, int moved,
                    int to) {
    int ready = 0, start = 0;
    for (int r = 0; r < ROWS; r++) {
        int run = runs[r];
        if (run != full) {
            int card = layout[start + run];
            if (card == GAP) {
                ready += 2;
            } else if (run) {
                int before = child_find(where, card - 1, moved, to);
                if (before >= 0 && before % STRIDE != WIDE - 1 && layout[before + 1] == GAP) ready += 1;
            }
        }
        start += STRIDE;
    }
    return (runs[0] + runs[1] + runs[2] + runs[3]) * 16 + ready;
}

typedef struct {
    int card, src, gap;
} Move;

static int moves_of(const unsigned char *layout, const int *runs, int forced, const unsigned char *where,
                    const unsigned char *gaps, Move *moves) {
    int count = 0;
    for (int g = 0; g < GAPS; g++) {
        int gap = gaps[g];
        int col = gap % STRIDE;
        if (col) {
            int card = NEXT[layout[gap - 1]];
            if (card >= 0) {
                int src = where[card] == 255 ? -1 : where[card];
                if (forced == GREEDY && col == runs[gap / STRIDE]) {
                    moves[0] = (Move){card, src, gap};
                    return 1;
                }
                moves[count++] = (Move){card, src, gap};
            }
            continue;
        }
        for (int t = 0; t < 4; t++) {
            int two = TWOS[t], src = where[two] == 255 ? -1 : where[two];
            if (forced && src % STRIDE == 0 && (runs[src / STRIDE] > 1 || layout[gap + 1] != two + 1)) continue;
            moves[count++] = (Move){two, src, gap};
        }
    }
    return count;
}

typedef struct {
    int score;
    int64_t entry;
    int runs[ROWS];
    unsigned char gaps[GAPS];
} Child;

static int child_order(const void *a, const void *b, const Seen *seen) {
    const Child *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    return memcmp(seen->entries[x->entry].key, seen->entries[y->entry].key, LEN);
}

static void sort_children(Child *children, int count, const Seen *seen) {
    for (int i = 1; i < count; i++) { /* a handful of children: insertion sort */
        Child child = children[i];
        int j = i - 1;
        while (j >= 0 && child_order(&children[j], &child, seen) > 0) {
            children[j + 1] = children[j];
            j--;
        }
        children[j + 1] = child;
    }
}

typedef struct {
    int64_t entry;
    int runs[ROWS];
    int32_t depth;
    unsigned char gaps[GAPS]; /* the position's gaps, in the order of their slots */
} Frame;

/* The gaps of the child where a card moved from ``src`` into ``gap``, in order. */
static void gaps_after(const unsigned char *gaps, int src, int gap, unsigned char *out) {
    int n = 0;
    for (int g = 0; g < GAPS; g++)
        if (gaps[g] != gap) out[n++] = gaps[g];
    int i = n;
    while (i > 0 && out[i - 1] > src) {
        out[i] = out[i - 1];
        i--;
    }
    out[i] = (unsigned char)src;
}

/* The moves from the start to entry ``e``, as a list of (card, source, gap). */
static PyObject *line_to(const Seen *seen, int64_t e) {
    Py_ssize_t length = 0;
    for (int64_t i = e; seen->entries[i].parent >= 0; i = seen->entries[i].parent) length++;
    PyObject *line = PyList_New(length);
    if (!line) return NULL;
    for (int64_t i = e; seen->entries[i].parent >= 0; i = seen->entries[i].parent) {
        const Entry *entry = &seen->entries[i];
        PyObject *move = Py_BuildValue("(iii)", entry->card, entry->src, entry->gap);
        if (!move) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, --length, move);
    }
    return line;
}

static PyObject *key_bytes(const Seen *seen, int64_t e) {
    return PyBytes_FromStringAndSize((const char *)seen->entries[e].key, LEN);
}

/* explore(layout, budget, full, forced) -> (won, nearest, gains_locked, nodes, complete, won_line, nearest_line) */
static PyObject *explore(PyObject *self, PyObject *args) {
    const unsigned char *start;
    Py_ssize_t length;
    long long budget;
    int full, forced;
    if (!PyArg_ParseTuple(args, "y#Lii", &start, &length, &budget, &full, &forced)) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the search core is not configured");
        return NULL;
    }
    if (length != LEN) {
        PyErr_Format(PyExc_ValueError, "a layout is %d bytes, not %zd", LEN, length);
        return NULL;
    }
    Seen seen;
    if (!seen_init(&seen, budget)) {
        seen_free(&seen);
        return PyErr_NoMemory();
    }
    int runs[ROWS], won_locked = ROWS * full, start_locked = 0, gap_count = 0;
    unsigned char start_gaps[GAPS];
    for (int i = 0; i < LEN; i++)
        if (start[i] == GAP && gap_count++ < GAPS) start_gaps[gap_count - 1] = (unsigned char)i;
    if (gap_count != GAPS) {
        seen_free(&seen);
        PyErr_Format(PyExc_ValueError, "a layout has %d gaps, not %d", GAPS, gap_count);
        return NULL;
    }
    for (int r = 0; r < ROWS; r++) start_locked += runs[r] = run_of(start, ROW_START[r]);
    seen_add(&seen, start, hash_layout(start), -1, 0, 0, 0, 0);
    PyObject *result = NULL;
    if (start_locked == won_locked) {
        PyObject *key = key_bytes(&seen, 0);
        result = Py_BuildValue("(OOOLO[][])", key, key, Py_False, 0LL, Py_True);
        Py_XDECREF(key);
        seen_free(&seen);
        return result;
    }
    size_t best_cap = 64, best_count = 1;
    int64_t *best = malloc(best_cap * sizeof(int64_t));
    size_t stack_cap = 1024, stack_count = 1;
    Frame *stack = malloc(stack_cap * sizeof(Frame));
    if (!best || !stack) goto nomemory;
    best[0] = 0;
    int best_score = -1, best_locked = start_locked;
    stack[0].entry = 0;
    memcpy(stack[0].runs, runs, sizeof runs);
    stack[0].depth = 0;
    memcpy(stack[0].gaps, start_gaps, GAPS);
    long long nodes = 0;
    int64_t won = -1;
    unsigned char key[LEN], where[256];
    memset(where, 255, sizeof where);
    Move moves[MAX_MOVES];
    Child children[MAX_MOVES];
    while (stack_count) {
        if (nodes >= budget) break;
        Frame frame = stack[--stack_count];
        nodes++;
        int32_t depth = frame.depth + 1;
        const unsigned char *lay = seen.entries[frame.entry].key;
        uint64_t parent_hash = seen.entries[frame.entry].hash;
        place_cards(lay, where);
        int count = moves_of(lay, frame.runs, forced, where, frame.gaps, moves);
        int kids = 0;
        uint64_t hashes[MAX_MOVES];
        for (int m = 0; m < count; m++) { /* the children's slots of the table, fetched together */
            hashes[m] = hash_after(parent_hash, moves[m].card, moves[m].src, moves[m].gap);
            __builtin_prefetch(&seen.table[hashes[m] & (seen.table_size - 1)]);
        }
        for (int m = 0; m < count; m++) {
            Move move = moves[m];
            memcpy(key, seen.entries[frame.entry].key, LEN);
            key[move.gap] = (unsigned char)move.card;
            key[move.src] = (unsigned char)GAP;
            uint64_t h = hashes[m];
            int64_t found = seen_find(&seen, key, h);
            if (found >= 0) {
                Entry *entry = &seen.entries[found];
                if (entry->parent >= 0 && entry->depth > depth) {
                    entry->parent = (int32_t)frame.entry;
                    entry->card = (unsigned char)move.card;
                    entry->src = (unsigned char)move.src;
                    entry->gap = (unsigned char)move.gap;
                    entry->depth = depth;
                }
                continue;
            }
            int64_t e = seen_add(&seen, key, h, (int32_t)frame.entry, depth, move.card, move.src, move.gap);
            if (e < 0) goto nomemory;
            int child_runs[ROWS];
            memcpy(child_runs, frame.runs, sizeof child_runs);
            if (move.src % STRIDE == 0 || move.gap % STRIDE == frame.runs[move.gap / STRIDE]) {
                child_runs[move.src / STRIDE] = run_of(key, move.src - move.src % STRIDE);
                child_runs[move.gap / STRIDE] = run_of(key, move.gap - move.gap % STRIDE);
                if (child_runs[0] + child_runs[1] + child_runs[2] + child_runs[3] == won_locked) {
                    won = e;
                    goto done;
                }
            }
            int score = score_of(key, child_runs, full, where, move.card, move.gap);
            if (score >= best_score) {
                if (score > best_score) {
                    best_count = 0;
                    best_score = score;
                    best_locked = child_runs[0] + child_runs[1] + child_runs[2] + child_runs[3];
                }
                int64_t *grown = reserve(best, &best_cap, best_count + 1, sizeof *best);
                if (!grown) goto nomemory;
                best = grown;
                best[best_count++] = e;
            }
            children[kids].score = score;
            children[kids].entry = e;
            memcpy(children[kids].runs, child_runs, sizeof child_runs);
            gaps_after(frame.gaps, move.src, move.gap, children[kids].gaps);
            kids++;
        }
        if (kids > 1) sort_children(children, kids, &seen);
        Frame *grown = reserve(stack, &stack_cap, stack_count + kids, sizeof *stack);
        if (!grown) goto nomemory;
        stack = grown;
        for (int k = 0; k < kids; k++) {
            stack[stack_count].entry = children[k].entry;
            memcpy(stack[stack_count].runs, children[k].runs, sizeof children[k].runs);
            stack[stack_count].depth = depth;
            memcpy(stack[stack_count].gaps, children[k].gaps, GAPS);
            stack_count++;
        }
    }
done:
    if (won >= 0) {
        PyObject *key_won = key_bytes(&seen, won), *line = line_to(&seen, won);
        if (key_won && line)
            result = Py_BuildValue("(OOOLOOO)", key_won, key_won, Py_True, nodes, Py_False, line, line);
        Py_XDECREF(key_won);
        Py_XDECREF(line);
    } else {
        int64_t nearest = best[0];
        int32_t nearest_depth = seen.entries[nearest].parent >= 0 ? seen.entries[nearest].depth : 0;
        for (size_t b = 1; b < best_count; b++) {
            int64_t e = best[b];
            int32_t d = seen.entries[e].parent >= 0 ? seen.entries[e].depth : 0;
            if (d < nearest_depth) {
                nearest = e;
                nearest_depth = d;
            }
        }
        PyObject *key_near = key_bytes(&seen, nearest), *line = line_to(&seen, nearest);
        if (key_near && line)
            result = Py_BuildValue("(OOOLO[]O)", Py_None, key_near, best_locked > start_locked ? Py_True : Py_False,
                                   nodes, stack_count ? Py_False : Py_True, line);
        Py_XDECREF(key_near);
        Py_XDECREF(line);
    }
    free(best);
    free(stack);
    seen_free(&seen);
    return result;
nomemory:
    free(best);
    free(stack);
    seen_free(&seen);
    return PyErr_NoMemory();
}

/* --------------------------------------------------------------------------- the deep search */

/* The set of the hashes of positions seen (games/solver.py, ``_deep``): Python's own hash of
   the bytes (``_Py_HashBytes``), so that two positions whose hashes meet are taken as seen
   here exactly as in the reference. */
typedef struct {
    Py_hash_t *slots; /* -1 marks an empty slot; a hash of -1 is kept apart */
    size_t size, count;
    int has_minus_one;
} HashSet;

static int hashset_init(HashSet *set) {
    set->size = 1 << 16;
    set->count = 0;
    set->has_minus_one = 0;
    set->slots = malloc(set->size * sizeof(Py_hash_t));
    if (!set->slots) return 0;
    for (size_t i = 0; i < set->size; i++) set->slots[i] = -1;
    return 1;
}

static size_t hashset_index(Py_hash_t h, size_t size) {
    uint64_t x = (uint64_t)h * 0x9E3779B97F4A7C15ULL;
    return (size_t)(x ^ (x >> 29)) & (size - 1);
}

/* Add ``h``: 1 if it was new, 0 if seen, -1 when memory runs out. */
static int hashset_add(HashSet *set, Py_hash_t h) {
    if (h == -1) {
        if (set->has_minus_one) return 0;
        set->has_minus_one = 1;
        return 1;
    }
    if ((set->count + 1) * 2 > set->size) {
        size_t size = set->size * 2;
        Py_hash_t *slots = malloc(size * sizeof(Py_hash_t));
        if (!slots) return -1;
        for (size_t i = 0; i < size; i++) slots[i] = -1;
        for (size_t i = 0; i < set->size; i++) {
            if (set->slots[i] == -1) continue;
            size_t j = hashset_index(set->slots[i], size);
            while (slots[j] != -1) j = (j + 1) & (size - 1);
            slots[j] = set->slots[i];
        }
        free(set->slots);
        set->slots = slots;
        set->size = size;
    }
    size_t i = hashset_index(h, set->size);
    while (set->slots[i] != -1) {
        if (set->slots[i] == h) return 0;
        i = (i + 1) & (set->size - 1);
    }
    set->slots[i] = h;
    set->count++;
    return 1;
}

typedef struct {
    unsigned char key[LEN];
    int runs[ROWS];
    int32_t depth;
    int card, src, gap;
} DeepFrame;

typedef struct {
    int score;
    unsigned char key[LEN];
    int runs[ROWS];
    int card, src, gap;
} DeepChild;

static int deep_order(const DeepChild *x, const DeepChild *y) {
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    return memcmp(x->key, y->key, LEN);
}

/* deep(layout, budget, full, forced) -> (line or None, nodes): games/solver.py's ``_deep``. */
static PyObject *deep(PyObject *self, PyObject *args) {
    const unsigned char *start;
    Py_ssize_t length;
    long long budget;
    int full, forced;
    if (!PyArg_ParseTuple(args, "y#Lii", &start, &length, &budget, &full, &forced)) return NULL;
    if (!configured || length != LEN) {
        PyErr_SetString(PyExc_ValueError, "a layout of another size than the engine's, or no tables");
        return NULL;
    }
    int runs[ROWS], won_locked = ROWS * full, locked = 0;
    for (int r = 0; r < ROWS; r++) locked += runs[r] = run_of(start, ROW_START[r]);
    if (locked == won_locked) return Py_BuildValue("([]i)", 0);
    HashSet seen;
    size_t stack_cap = 1024, stack_count = 1, path_cap = 256, path_count = 0;
    DeepFrame *stack = malloc(stack_cap * sizeof(DeepFrame));
    Move *path = malloc(path_cap * sizeof(Move));
    if (!hashset_init(&seen) || !stack || !path) goto nomemory;
    if (hashset_add(&seen, _Py_HashBytes(start, LEN)) < 0) goto nomemory;
    memcpy(stack[0].key, start, LEN);
    memcpy(stack[0].runs, runs, sizeof runs);
    stack[0].depth = 0;
    stack[0].card = stack[0].src = stack[0].gap = -1;
    long long nodes = 0;
    unsigned char where[256], gaps[GAPS];
    memset(where, 255, sizeof where);
    Move moves[MAX_MOVES];
    DeepChild children[MAX_MOVES];
    while (stack_count && nodes < budget) {
        DeepFrame frame = stack[--stack_count];
        size_t keep = frame.depth > 1 ? (size_t)frame.depth - 1 : 0;
        if (path_count > keep) path_count = keep;
        if (frame.depth) {
            Move *grown = reserve(path, &path_cap, path_count + 1, sizeof *path);
            if (!grown) goto nomemory;
            path = grown;
            path[path_count++] = (Move){frame.card, frame.src, frame.gap};
        }
        nodes++;
        place_cards(frame.key, where);
        for (int i = 0, g = 0; i < LEN && g < GAPS; i++)
            if (frame.key[i] == GAP) gaps[g++] = (unsigned char)i;
        int count = moves_of(frame.key, frame.runs, forced, where, gaps, moves);
        int kids = 0;
        for (int m = 0; m < count; m++) {
            Move move = moves[m];
            DeepChild *child = &children[kids];
            memcpy(child->key, frame.key, LEN);
            child->key[move.gap] = (unsigned char)move.card;
            child->key[move.src] = (unsigned char)GAP;
            int added = hashset_add(&seen, _Py_HashBytes(child->key, LEN));
            if (added < 0) goto nomemory;
            if (!added) continue;
            memcpy(child->runs, frame.runs, sizeof child->runs);
            if (move.src % STRIDE == 0 || move.gap % STRIDE == frame.runs[move.gap / STRIDE]) {
                child->runs[move.src / STRIDE] = run_of(child->key, move.src - move.src % STRIDE);
                child->runs[move.gap / STRIDE] = run_of(child->key, move.gap - move.gap % STRIDE);
                if (child->runs[0] + child->runs[1] + child->runs[2] + child->runs[3] == won_locked) {
                    PyObject *line = PyList_New((Py_ssize_t)path_count + 1);
                    if (!line) goto failed;
                    for (size_t p = 0; p < path_count; p++) {
                        PyObject *step = Py_BuildValue("(iii)", path[p].card, path[p].src, path[p].gap);
                        if (!step) {
                            Py_DECREF(line);
                            goto failed;
                        }
                        PyList_SET_ITEM(line, (Py_ssize_t)p, step);
                    }
                    PyObject *last = Py_BuildValue("(iii)", move.card, move.src, move.gap);
                    if (!last) {
                        Py_DECREF(line);
                        goto failed;
                    }
                    PyList_SET_ITEM(line, (Py_ssize_t)path_count, last);
                    free(stack);
                    free(path);
                    free(seen.slots);
                    return Py_BuildValue("(NL)", line, nodes);
                }
            }
            child->score = score_of(child->key, child->runs, full, where, move.card, move.gap);
            child->card = move.card;
            child->src = move.src;
            child->gap = move.gap;
            kids++;
        }
        for (int i = 1; i < kids; i++) { /* a handful of children: insertion sort */
            DeepChild child = children[i];
            int j = i - 1;
            while (j >= 0 && deep_order(&children[j], &child) > 0) {
                children[j + 1] = children[j];
                j--;
            }
            children[j + 1] = child;
        }
        DeepFrame *grown = reserve(stack, &stack_cap, stack_count + kids, sizeof *stack);
        if (!grown) goto nomemory;
        stack = grown;
        for (int k = 0; k < kids; k++) {
            DeepFrame *next = &stack[stack_count++];
            memcpy(next->key, children[k].key, LEN);
            memcpy(next->runs, children[k].runs, sizeof next->runs);
            next->depth = frame.depth + 1;
            next->card = children[k].card;
            next->src = children[k].src;
            next->gap = children[k].gap;
        }
    }
    free(stack);
    free(path);
    free(seen.slots);
    return Py_BuildValue("(OL)", Py_None, nodes);
nomemory:
    PyErr_NoMemory();
failed:
    free(stack);
    free(path);
    free(seen.slots);
    return NULL;
}

/* configure(length, stride, wide, gap, next, heads, twos, row_starts): the engine's tables. */
static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *next, *heads, *twos, *row_starts;
    int length;
    if (!PyArg_ParseTuple(args, "iiiiOOOO", &length, &STRIDE, &WIDE, &GAP, &next, &heads, &twos, &row_starts))
        return NULL;
    if (length != LEN || PySequence_Size(next) != 256 || PySequence_Size(twos) != 4 ||
        PySequence_Size(row_starts) != ROWS) {
        PyErr_SetString(PyExc_ValueError, "tables of another shape than the search core's");
        return NULL;
    }
    for (int i = 0; i < 256; i++) {
        PyObject *item = PySequence_GetItem(next, i);
        if (!item) return NULL;
        NEXT[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
        HEAD[i] = 0;
    }
    PyObject *iterator = PyObject_GetIter(heads), *item;
    if (!iterator) return NULL;
    while ((item = PyIter_Next(iterator))) {
        long head = PyLong_AsLong(item);
        Py_DECREF(item);
        if (head >= 0 && head < 256) HEAD[head] = 1;
    }
    Py_DECREF(iterator);
    for (int i = 0; i < 4; i++) {
        PyObject *two = PySequence_GetItem(twos, i), *row = PySequence_GetItem(row_starts, i);
        if (!two || !row) return NULL;
        TWOS[i] = (int)PyLong_AsLong(two);
        ROW_START[i] = (int)PyLong_AsLong(row);
        Py_DECREF(two);
        Py_DECREF(row);
    }
    if (PyErr_Occurred()) return NULL;
    uint64_t state = 43; /* any fixed seed: the hashes order nothing the caller sees */
    for (int i = 0; i < LEN; i++) {
        for (int c = 0; c < CARDS; c++) ZOBRIST_CARD[i][c] = splitmix64(&state);
        ZOBRIST_GAP[i] = splitmix64(&state);
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "Give the search the engine's tables."},
    {"explore", explore, METH_VARARGS, "The solver's _explore, compiled."},
    {"deep", deep, METH_VARARGS, "The solver's _deep, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_searchcore", "The solver's search, compiled.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__searchcore(void) { return PyModule_Create(&module); }
