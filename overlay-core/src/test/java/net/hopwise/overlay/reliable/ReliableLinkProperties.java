package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import net.hopwise.overlay.testing.LeakDetection;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * One link's reliable channel, sender and receiver alone on virtual time, over a channel that loses,
 * duplicates and reorders in both directions: every packet is taken exactly once by the receiver,
 * everything is finally acknowledged, and the sender never holds more than its window and queue.
 */
class ReliableLinkProperties {
    private static final long MS = 1_000_000L;

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    private record Event(long at, long order, boolean toReceiver, long epoch, int sequence, int base, int id,
            LinkAck ack) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(order, o.order);
        }
    }

    @Property(tries = 200)
    void everyPacketIsTakenOnceAndAcknowledged(@ForAll long seed, @ForAll @IntRange(min = 1, max = 600) int packets,
            @ForAll @DoubleRange(min = 0, max = 0.3) double loss, @ForAll @DoubleRange(min = 0, max = 0.2) double dup,
            @ForAll @DoubleRange(min = 0, max = 0.3) double reorder, @ForAll boolean smallQueue) {
        SplittableRandom random = new SplittableRandom(seed);
        ReliableLinkConfig config = ReliableLinkConfig.builder().sendWindow(32).queueLimit(smallQueue ? 8 : 256)
                .markThreshold(smallQueue ? 8 : 32).build();
        PriorityQueue<Event> events = new PriorityQueue<>();
        long[] now = {0};
        long[] order = {0};
        long delay = (1 + random.nextInt(20)) * MS;
        ReliableLinkReceiver receiver = new ReliableLinkReceiver(config);
        ReliableLinkSender sender = new ReliableLinkSender(config, 7, (epoch, sequence, base, packet, again) -> {
            int id = packet.getInt(packet.readerIndex());
            int copies = random.nextDouble() < loss ? 0 : random.nextDouble() < dup ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                long extra = random.nextDouble() < reorder ? random.nextLong(3 * delay) : 0;
                events.add(new Event(now[0] + delay + extra, order[0]++, true, epoch, sequence, base, id, null));
            }
        });
        sender.seedRtt(2 * delay);
        Set<Integer> taken = new HashSet<>();
        int duplicatesTaken = 0;
        int offered = 0;
        long limit = 600_000 * MS;
        while (now[0] < limit) {
            while (offered < packets && sender.hasRoom()) {
                ByteBuf p = PooledByteBufAllocator.DEFAULT.buffer(4).writeInt(offered);
                assertThat(sender.offer(p, now[0])).isTrue();
                offered++;
            }
            assertThat(sender.queueLength()).isLessThanOrEqualTo(config.queueLimit());
            assertThat(sender.unacknowledged()).isLessThanOrEqualTo(config.sendWindow());
            if (offered == packets && taken.size() == packets && sender.unacknowledged() == 0
                    && sender.queueLength() == 0) {
                break;
            }
            Event e = events.peek();
            long timer = sender.nextDeadlineNanos();
            if (e == null && timer == Long.MAX_VALUE) {
                break;
            }
            if (e != null && e.at <= timer) {
                events.poll();
                now[0] = Math.max(now[0], e.at);
                if (e.toReceiver) {
                    ReliableLinkReceiver.Arrival a = receiver.classify(e.epoch, e.sequence, e.base);
                    if (a == ReliableLinkReceiver.Arrival.NEW) {
                        receiver.accept();
                        if (!taken.add(e.id)) {
                            duplicatesTaken++;
                        }
                    }
                    ByteBuf ack = PooledByteBufAllocator.DEFAULT.buffer();
                    receiver.writeAck(ack);
                    LinkAck decoded = ReliableLinkCodec.decodeAck(ack);
                    ack.release();
                    if (random.nextDouble() >= loss) {
                        long extra = random.nextDouble() < reorder ? random.nextLong(3 * delay) : 0;
                        events.add(new Event(now[0] + delay + extra, order[0]++, false, 0, 0, 0, 0, decoded));
                    }
                } else {
                    sender.onAck(e.ack, now[0]);
                }
            } else {
                now[0] = Math.max(now[0], timer);
                sender.onTimer(now[0]);
            }
        }
        assertThat(duplicatesTaken).isZero();
        assertThat(taken).hasSize(packets);
        assertThat(sender.unacknowledged()).isZero();
        sender.close();
    }

    /**
     * Cases that stalled a link for good at 30% loss: tail packets the receiver held but its SACK
     * blocks could not name were lost again and again by their own timers, each loss restarting the
     * timeout, the one thing that would have resent the hole before them.
     */
    @Example
    void theCasesThatOnceStalledALinkComplete() {
        everyPacketIsTakenOnceAndAcknowledged(1791160385968519047L, 61, 0.3, 0.022958461496414895, 0.07532543986500648, true);
        everyPacketIsTakenOnceAndAcknowledged(4796028671103953600L, 465, 0.3, 0.2, 0.0, true);
        everyPacketIsTakenOnceAndAcknowledged(1405058143781657244L, 298, 0.3, 0.0, 0.05548771906411385, true);
    }

    @Property(tries = 100)
    void ackCodecRoundTrips(@ForAll long epoch, @ForAll int cumulative, @ForAll int[] blocks) {
        int n = Math.min(blocks.length / 2, ReliableLinkCodec.MAX_BLOCKS);
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        ReliableLinkCodec.writeAck(b, epoch, cumulative, blocks, n);
        LinkAck ack = ReliableLinkCodec.decodeAck(b);
        b.release();
        assertThat(ack).isNotNull();
        assertThat(ack.epoch()).isEqualTo(epoch);
        assertThat(ack.cumulative()).isEqualTo(cumulative);
        assertThat(ack.blocks()).containsExactly(java.util.Arrays.copyOf(blocks, 2 * n));
    }

    @Property(tries = 200)
    void theReaderReadsDataHeadersInPlaceAndIsReusedWithoutLeftovers(@ForAll long epoch, @ForAll int sequence,
            @ForAll int base, @ForAll long ackEpoch, @ForAll int cumulative, @ForAll int[] blocks,
            @ForAll byte[] inner) {
        int n = Math.min(blocks.length / 2, ReliableLinkCodec.MAX_BLOCKS);
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        ByteBuf shorter = PooledByteBufAllocator.DEFAULT.buffer();
        try {
            b.writeByte(0x5A); // the body need not start at index 0
            b.readerIndex(1);
            ReliableLinkCodec.writeDataPrefix(b, epoch, sequence, base);
            ReliableLinkCodec.writeAck(b, ackEpoch, cumulative, blocks, n);
            b.writeBytes(inner);
            ReliableLinkCodec.Reader reader = new ReliableLinkCodec.Reader();
            // A read with more blocks first: what it left must not show through the next read.
            ReliableLinkCodec.writeAck(shorter, 1, 2, new int[2 * ReliableLinkCodec.MAX_BLOCKS],
                    ReliableLinkCodec.MAX_BLOCKS);
            assertThat(reader.readAck(shorter, 0)).isTrue();
            assertThat(reader.readData(b)).isEqualTo(epoch != 0);
            if (epoch == 0) {
                return;
            }
            assertThat(reader.epoch()).isEqualTo(epoch);
            assertThat(reader.sequence()).isEqualTo(sequence);
            assertThat(reader.base()).isEqualTo(base);
            assertThat(reader.ackEpoch()).isEqualTo(ackEpoch);
            assertThat(reader.cumulative()).isEqualTo(cumulative);
            assertThat(reader.blockInts()).isEqualTo(2 * n);
            assertThat(java.util.Arrays.copyOf(reader.blocks(), 2 * n))
                    .containsExactly(java.util.Arrays.copyOf(blocks, 2 * n));
            assertThat(b.readableBytes() - reader.innerOffset()).isEqualTo(inner.length);
            assertThat(b.readerIndex()).isEqualTo(1);
        } finally {
            b.release();
            shorter.release();
        }
    }

    @Property(tries = 300)
    void theReaderTakesExactlyTheWellFormedAcknowledgements(@ForAll byte[] bytes, @ForAll @IntRange(max = 40) int offset) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer().writeBytes(bytes);
        try {
            // The format, read independently of the codec: 13 fixed bytes, then n <= 16 blocks of 8.
            int n = bytes.length - offset >= ReliableLinkCodec.ACK_FIXED ? bytes[offset + 12] & 0xFF : -1;
            boolean wellFormed = n >= 0 && n <= ReliableLinkCodec.MAX_BLOCKS
                    && bytes.length - offset >= ReliableLinkCodec.ACK_FIXED + 8 * n;
            ReliableLinkCodec.Reader reader = new ReliableLinkCodec.Reader();
            assertThat(reader.readAck(b, offset)).isEqualTo(wellFormed);
            assertThat(ReliableLinkCodec.decodeAck(b, offset) != null).isEqualTo(wellFormed);
            if (wellFormed) {
                java.nio.ByteBuffer view = java.nio.ByteBuffer.wrap(bytes, offset, bytes.length - offset);
                assertThat(reader.ackEpoch()).isEqualTo(view.getLong(offset));
                assertThat(reader.cumulative()).isEqualTo(view.getInt(offset + 8));
                assertThat(reader.blockInts()).isEqualTo(2 * n);
                for (int i = 0; i < 2 * n; i++) {
                    assertThat(reader.blocks()[i]).isEqualTo(view.getInt(offset + ReliableLinkCodec.ACK_FIXED + 4 * i));
                }
            }
        } finally {
            b.release();
        }
    }
}
