package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.RouterTest.A;
import static net.hopwise.overlay.routing.RouterTest.B;
import static net.hopwise.overlay.routing.RouterTest.C;
import static net.hopwise.overlay.routing.RouterTest.TEN_MS;
import static net.hopwise.overlay.routing.RouterTest.lsa;
import static net.hopwise.overlay.routing.RouterTest.update;
import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.LinkStateSigner;
import org.junit.jupiter.api.Test;

/**
 * What keeps a node with thousands of extension records cheap and its flooding lossless: a window of
 * unacknowledged records per neighbour, a refresh that re-floods the same signed version instead of
 * signing a new one, and an own-refresh deadline kept instead of found by a walk of every own record.
 */
class ExtensionFloodControlTest {
    static final int RECORD_BYTES = 1000;
    static final int RECORDS = 200;

    final RoutingConfig config = RoutingConfig.builder().maxExtensionsPerOrigin(4096).build();
    final CapturingOutput out = new CapturingOutput();
    final CountingSigner signer = new CountingSigner();

    /** a with up neighbours b and c (a-b-c, a-c), their advertisements held. */
    private Router router(LinkStateSigner s) {
        Router a = new Router(A, "a", config, out, 100, 0, s);
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 5, A, C), lsa(C, 7, A, B)), 0);
        runUntil(a, SECOND);
        out.clear();
        return a;
    }

    /** Runs the router's timers to {@code nanos}; a deadline that never moves on is a failure, not a hang. */
    private static void runUntil(Router a, long nanos) {
        for (int steps = 0; a.nextDeadlineNanos() <= nanos; steps++) {
            assertThat(steps).as("timer steps before " + nanos + " ns (a deadline in the past that nothing clears?)")
                    .isLessThan(100_000);
            a.onTimer(Math.max(a.nextDeadlineNanos(), 0));
        }
    }

    private static byte[] record(int i) {
        byte[] r = new byte[RECORD_BYTES];
        r[0] = (byte) i;
        r[1] = (byte) (i >> 8);
        return r;
    }

    private static Set<Integer> kinds(List<ExtensionRecord> records) {
        Set<Integer> kinds = new HashSet<>();
        records.forEach(r -> kinds.add(r.kind()));
        return kinds;
    }

    /** Acks to a everything it sent to {@code to} so far. */
    private void ackAll(Router a, NodeId to, long nowNanos) {
        List<ExtensionAck.Entry> entries = out.extensionRecordsTo(to).stream()
                .map(r -> new ExtensionAck.Entry(r.origin(), r.kind(), r.sequence())).distinct().toList();
        a.onExtensionAck(to, new ExtensionAck(entries), nowNanos);
    }

    @Test
    void aNeighbourGetsAWindowOfRecordsAtATimeAndEveryRecordOnceItAcks() {
        Router a = router(null);
        for (int i = 1; i <= RECORDS; i++) {
            a.publishExtension(i, record(i), SECOND);
        }
        runUntil(a, 3 * SECOND);
        long perRecord = ExtensionCodec.encodedSize(new ExtensionRecord(A, 1, 100, 0, record(1)));
        long window = (ExtensionNeighbour.WINDOW_BYTES + perRecord - 1) / perRecord;
        Set<Integer> sent = kinds(out.extensionRecordsTo(B));
        assertThat(sent).as("unacknowledged, at most a window's worth, however long it waits").hasSize((int) window);
        int packets = (int) out.extensionsSent.stream().filter(s -> s.to().equals(B) && s.update() != null).count();
        assertThat(packets).as("the window's records resent each retransmission interval, no more")
                .isLessThanOrEqualTo((int) (window * (1 + 2 * SECOND / config.floodRetransmitInterval().toNanos())));

        // Each ack opens the window again: everything arrives, a window at a time.
        long t = 3 * SECOND;
        for (int round = 0; round < 20 && kinds(out.extensionRecordsTo(B)).size() < RECORDS; round++) {
            ackAll(a, B, t);
            t += 20 * MS;
            runUntil(a, t);
        }
        assertThat(kinds(out.extensionRecordsTo(B))).hasSize(RECORDS);
        ackAll(a, B, t);
        ackAll(a, C, t);
        runUntil(a, t + 10 * SECOND);
        out.clear();
        runUntil(a, t + 20 * SECOND);
        assertThat(out.extensionRecordsTo(B)).as("all acked: nothing resent").isEmpty();
    }

    @Test
    void aRefreshFloodsTheSameSignedVersionAgedZero() {
        Router a = router(signer);
        a.publishExtension(1, record(1), SECOND);
        assertThat(signer.signed).isEqualTo(1);
        long maxAge = config.maxAge().toNanos();
        for (long t = SECOND; t < 3 * maxAge; t += 10 * SECOND) {
            runUntil(a, t);
            a.onUpdate(B, update(lsa(B, 6 + t / SECOND, A, C), lsa(C, 8 + t / SECOND, A, B)), t);
            ackAll(a, B, t);
            ackAll(a, C, t);
        }
        assertThat(a.extensions(1)).containsOnlyKeys(A);
        List<ExtensionRecord> toB = out.extensionRecordsTo(B).stream().filter(r -> r.kind() == 1).toList();
        assertThat(toB).extracting(ExtensionRecord::sequence).as("one version all along").containsOnly(100L);
        assertThat(toB).as("sent again at each refresh, aged 0")
                .hasSizeGreaterThanOrEqualTo((int) (3 * maxAge / config.refreshInterval().toNanos()))
                .allSatisfy(r -> assertThat(r.ageMillis()).isZero());
        assertThat(signer.signed).as("records signed: the refreshes sign nothing").isEqualTo(1);
    }

    @Test
    void aReceiverTakesACopySentLaterAsARefreshAndFloodsItOnce() {
        Router a = router(null);
        ExtensionRecord cs = new ExtensionRecord(C, 3, 50, 0, record(3));
        a.onExtensionUpdate(C, new ExtensionUpdate(List.of(cs)), SECOND);
        assertThat(out.extensionRecordsTo(B)).containsExactly(cs);
        ackAll(a, B, SECOND);
        long maxAge = config.maxAge().toNanos();
        long refresh = config.refreshInterval().toNanos();
        for (long t = SECOND + refresh; t < 3 * maxAge; t += refresh) {
            runUntil(a, t);
            a.onUpdate(B, update(lsa(B, 6 + t / SECOND, A, C), lsa(C, 8 + t / SECOND, A, B)), t);
            out.clear();
            a.onExtensionUpdate(C, new ExtensionUpdate(List.of(cs.withAgeMillis(5))), t);
            assertThat(out.extensionAcksTo(C)).containsExactly(new ExtensionAck.Entry(C, 3, 50));
            assertThat(out.extensionRecordsTo(B)).as("the refresh flooded on at " + t).containsExactly(cs.withAgeMillis(5));
            ackAll(a, B, t);
            // The same refresh by a slower path: acknowledged, not flooded again.
            out.clear();
            a.onExtensionUpdate(B, new ExtensionUpdate(List.of(cs.withAgeMillis(40))), t + 30 * MS);
            assertThat(out.extensionAcksTo(B)).containsExactly(new ExtensionAck.Entry(C, 3, 50));
            assertThat(out.extensionRecordsTo(C)).isEmpty();
            assertThat(a.extensions(3)).as("alive at " + t + ", past maxAge of its first copy").containsOnlyKeys(C);
        }
        assertThat(out.extensionChanges).as("a refresh is no change").isEmpty();
    }

    @Test
    void theNextOwnRefreshIsKeptNotFoundByAWalkOfTheOwnRecords() {
        LinkStateDatabase origins = new LinkStateDatabase(A, config.maxAge().toNanos());
        LinkStateExtensions x = new LinkStateExtensions(A, config, out, origins, 100, 0);
        long refresh = config.refreshInterval().toNanos();
        for (int i = 1; i <= 2048; i++) {
            x.publish(i, new byte[] {(byte) i}, i * MS);
        }
        x.publish(7, null, 3 * SECOND);
        x.publish(1, null, 3 * SECOND);
        long walks = x.ownRecordWalks();
        for (int i = 0; i < 10_000; i++) {
            x.publish(2048, new byte[] {(byte) i, 1}, 4 * SECOND);
            x.finish(4 * SECOND);
            // Kind 1's refresh was due first; withdrawn, it may leave the deadline early, never late.
            assertThat(x.nextDeadlineNanos()).isBetween(MS + refresh, 2 * MS + refresh);
        }
        assertThat(x.ownRecordWalks()).as("walks of the own records in 10,000 inputs").isEqualTo(walks);
        x.onTimer(MS + refresh);
        assertThat(x.nextDeadlineNanos()).as("the earliest live record's refresh: kind 2's").isEqualTo(2 * MS + refresh);
        x.onTimer(2 * MS + refresh);
        assertThat(x.ownRecordWalks()).isEqualTo(walks + 2);
        assertThat(x.nextDeadlineNanos()).as("then kind 3's").isEqualTo(3 * MS + refresh);
    }

    /** Signs with a checksum and counts the extension records it signs: a stand-in for a real signer's cost. */
    static final class CountingSigner implements LinkStateSigner {
        /** What an extension record's signed content starts with: the codec's tag. */
        private static final byte[] TAG;

        static {
            byte[] c = ExtensionCodec.signedContent(new ExtensionRecord(A, 1, 0, 0, null));
            TAG = java.util.Arrays.copyOf(c, c.length - 20);
        }

        int signed;

        @Override
        public int maxSignatureBytes() {
            return 4;
        }

        @Override
        public byte[] sign(byte[] content) {
            if (content.length >= TAG.length && java.util.Arrays.equals(content, 0, TAG.length, TAG, 0, TAG.length)) {
                signed++;
            }
            return checksum(content);
        }

        @Override
        public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
            return java.util.Arrays.equals(checksum(content), signature);
        }

        private static byte[] checksum(byte[] content) {
            int h = java.util.Arrays.hashCode(content);
            return new byte[] {(byte) h, (byte) (h >> 8), (byte) (h >> 16), (byte) (h >> 24)};
        }
    }
}
