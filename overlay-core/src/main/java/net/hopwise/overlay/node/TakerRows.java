package net.hopwise.overlay.node;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rows of the chains' frame tables, shared between nodes: every node of a process usually runs the
 * same stages, so their tables hold the same rows, 256 bytes each and one per stage. Shared, a
 * table costs a node its array of row references only (a 50-node overlay in one process kept 180 KiB
 * of identical rows before). Rows are never written once interned.
 */
final class TakerRows {
    /** Far more distinct chains than a process runs; past it, rows are simply not shared. */
    private static final int MAX_ROWS = 4096;
    private static final ConcurrentHashMap<Row, byte[]> ROWS = new ConcurrentHashMap<>();

    private TakerRows() {}

    /** The shared row equal to {@code row}, or {@code row} itself if it is the first such or the cache is full. */
    static byte[] intern(byte[] row) {
        Row key = new Row(row);
        byte[] shared = ROWS.get(key);
        if (shared != null) {
            return shared;
        }
        if (ROWS.size() >= MAX_ROWS) {
            return row;
        }
        shared = ROWS.putIfAbsent(key, row);
        return shared != null ? shared : row;
    }

    private record Row(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Row r && Arrays.equals(bytes, r.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
