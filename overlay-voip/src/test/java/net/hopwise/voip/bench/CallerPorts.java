package net.hopwise.voip.bench;

import java.util.Arrays;

/** The SIPp callers' ports the capture analysers are given: one, or several comma-separated (calls.sh's UACS). */
final class CallerPorts {
    private CallerPorts() {}

    static int[] parse(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /** A scan, not a set: a handful of ports, asked once or twice for every captured packet. */
    static boolean contains(int[] ports, int port) {
        for (int p : ports) {
            if (p == port) {
                return true;
            }
        }
        return false;
    }
}
