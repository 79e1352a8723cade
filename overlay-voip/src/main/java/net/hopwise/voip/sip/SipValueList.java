package net.hopwise.voip.sip;

import java.util.Arrays;

/**
 * Splits a header value into its comma-separated elements (RFC 3261 section 7.3.1) as byte ranges,
 * ignoring commas inside quoted strings and angle brackets. Ranges are trimmed of white space and
 * line folds; an empty element (as in {@code a,,b}) is kept so that checks can reject it.
 */
final class SipValueList {
    private SipValueList() {}

    /** Pairs {@code start, end} of each element of {@code [from, to)}. */
    static int[] split(ByteView v, int from, int to) {
        int[] ranges = new int[8];
        int n = 0;
        int elementStart = from;
        boolean quoted = false;
        boolean bracketed = false;
        for (int i = from; i < to; i++) {
            int c = v.at(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '<') {
                bracketed = true;
            } else if (c == '>') {
                bracketed = false;
            } else if (c == ',' && !bracketed) {
                ranges = add(ranges, n, v, elementStart, i);
                n += 2;
                elementStart = i + 1;
            }
        }
        ranges = add(ranges, n, v, elementStart, to);
        return Arrays.copyOf(ranges, n + 2);
    }

    private static int[] add(int[] ranges, int n, ByteView v, int from, int to) {
        int[] out = n + 2 > ranges.length ? Arrays.copyOf(ranges, ranges.length * 2) : ranges;
        int start = trimStart(v, from, to);
        out[n] = start;
        out[n + 1] = trimEnd(v, start, to);
        return out;
    }

    private static int trimStart(ByteView v, int from, int to) {
        while (from < to && isSpace(v.at(from))) {
            from++;
        }
        return from;
    }

    private static int trimEnd(ByteView v, int from, int to) {
        while (to > from && isSpace(v.at(to - 1))) {
            to--;
        }
        return to;
    }

    private static boolean isSpace(int b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
