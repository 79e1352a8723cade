package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Growing a ring keeps every entry at its sequence number's slot, wherever the live range wraps. */
class RingsTest {
    @Test
    void everyLiveEntryLandsAtItsSequenceNumbersNewSlot() {
        for (long from = 0; from < 40; from++) {
            for (int live = 0; live <= 16; live++) {
                long[] small = new long[16];
                for (long seq = from; seq < from + live; seq++) {
                    small[(int) (seq & 15)] = seq;
                }
                long[] big = new long[64];
                Rings.copy(small, 15, big, 63, from, from + live);
                for (long seq = from; seq < from + live; seq++) {
                    assertThat(big[(int) (seq & 63)]).as("seq %d from %d live %d", seq, from, live).isEqualTo(seq);
                }
                int filled = 0;
                for (long v : big) {
                    if (v != 0) {
                        filled++;
                    }
                }
                assertThat(filled).isEqualTo(from == 0 && live > 0 ? live - 1 : live);
            }
        }
    }
}
