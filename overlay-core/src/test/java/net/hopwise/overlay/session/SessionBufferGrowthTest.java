package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A session's buffers start small and double as they fill: every packet keeps its sequence number
 * across the growth, on both edges.
 */
class SessionBufferGrowthTest {
    private static final long MS = 1_000_000L;

    @Test
    void theSenderKeepsEveryPacketAtItsSequenceNumberAsItGrows() {
        List<Long> sentPayloads = new ArrayList<>();
        List<Integer> sequences = new ArrayList<>();
        ReliableSessionSender sender = new ReliableSessionSender(SessionConfig.defaults(), 1,
                new ReliableSessionSender.Output() {
                    @Override
                    public boolean transmit(long incarnation, int sequence, ByteBuf payload, boolean endOfMessage,
                            int ackInterval, boolean retransmission) {
                        sequences.add(sequence);
                        sentPayloads.add(payload.getLong(payload.readerIndex()));
                        return true;
                    }

                    @Override
                    public void acknowledged(int packets) {}
                });
        try {
            assertThat(sender.slots()).isEqualTo(64);
            long now = 0;
            // The window opens as acknowledgements arrive; acknowledge a little at a time so that the
            // buffer fills well past its first slots.
            int offered = 0;
            for (int round = 0; round < 40; round++) {
                while (offered < 3000 && sender.offerPrepared(Unpooled.buffer(8).writeLong(offered), now)) {
                    offered++;
                }
                now += MS;
                int cumulative = Math.min(sequences.size(), sequences.size() / 2 + 1);
                sender.onAck(1, cumulative, 4096, 0, now);
            }
            assertThat(sender.slots()).isGreaterThan(64).isLessThanOrEqualTo(SessionConfig.DEFAULT_SEND_BUFFER);
            for (int i = 0; i < sequences.size(); i++) {
                assertThat(sentPayloads.get(i)).as("payload sent as sequence %d", sequences.get(i))
                        .isEqualTo((long) sequences.get(i));
            }
            // A timeout resends from the first unacknowledged packet: still the right payloads.
            int before = sequences.size();
            sender.onTimer(now + 10_000 * MS);
            assertThat(sequences.size()).isGreaterThan(before);
            for (int i = before; i < sequences.size(); i++) {
                assertThat(sentPayloads.get(i)).isEqualTo((long) sequences.get(i));
            }
        } finally {
            sender.close();
        }
    }

    @Test
    void theReceiverDeliversInOrderWhateverOrderPacketsArriveInAsItGrows() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        List<Long> delivered = new ArrayList<>();
        ReliableSessionReceiver receiver = new ReliableSessionReceiver(SessionConfig.defaults(),
                ByteBufAllocator.DEFAULT, m -> delivered.add(m.getLong(m.readerIndex())));
        try {
            assertThat(receiver.slots()).isEqualTo(64);
            int count = 3000;
            int[] order = new int[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            // Shuffled within blocks of 1500: packets arrive up to 1500 ahead of the first missing one.
            for (int block = 0; block < count; block += 1500) {
                for (int i = Math.min(count, block + 1500) - 1; i > block; i--) {
                    int j = block + random.nextInt(i - block + 1);
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
            }
            for (int k = 0; k < count; k++) {
                ByteBuf p = Unpooled.buffer(8).writeLong(order[k]);
                assertThat(receiver.onData(7, order[k], p, true, 0, 16, 0))
                        .as("packet %d (seed %d)", order[k], seed).isEqualTo(ReliableSessionReceiver.Arrival.NEW);
                p.release();
                if (k % 97 == 0) {
                    // A packet already received arrives again: recognised after any growth.
                    int again = order[random.nextInt(k + 1)];
                    ByteBuf d = Unpooled.buffer(8).writeLong(again);
                    assertThat(receiver.onData(7, again, d, true, 0, 16, 0)).as("seed %d", seed)
                            .isEqualTo(ReliableSessionReceiver.Arrival.DUPLICATE);
                    d.release();
                }
            }
            assertThat(receiver.slots()).isGreaterThanOrEqualTo(2048).isLessThanOrEqualTo(4096);
            assertThat(delivered).as("seed %d", seed).hasSize(count);
            for (int i = 0; i < count; i++) {
                assertThat(delivered.get(i)).as("message %d (seed %d)", i, seed).isEqualTo(i);
            }
        } finally {
            receiver.close();
        }
    }
}
