package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.response;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a call leaves when the relay forgets it, on virtual time: one JSON line in the call records
 * file, its quality in the meters, then the embedder's listener. The Call-ID and the caller's URI carry
 * the characters JSON must escape.
 */
class CallEndsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CALL_ID = "odd\"call\\id@test";
    private static final String CALLER = "sip:we\"ird\\user@127.0.0.1:5080";
    private static final Instant WALL = Instant.parse("2026-11-26T20:00:00Z");

    @TempDir
    Path dir;

    private final RelayPair pair = new RelayPair();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RelayMeters meters = new RelayMeters(registry, "a", List.of());

    /**
     * A call from phone A's odd URI, answered, 1 s of media from phone B of which the overlay loses two
     * packets (the 11th and the 21st of 50), hung up by phone A 5 s after the INVITE.
     */
    private void finishedCall() {
        pair.fromPhoneA(SipText.invite(CALL_ID, "z9hG4bK-odd", SipText.SDP_A)
                .replace("From: sipp <sip:sipp@127.0.0.1:5080>", "From: sipp <" + CALLER + ">"));
        assertThat(SipText.startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String invite = pair.atB();
        pair.fromPhoneB(response(invite, 200, "tagB", SipText.SDP_B));
        pair.atA();
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-odd-ack", "tagA", "tagB", CALL_ID,
                1, "", null));
        pair.atB();
        int calleePort = pair.b.calls(pair.now).get(0).streams().get(0).rtpPort();
        for (int seq = 0; seq < 50; seq++) {
            pair.mediaB.overlayDelivers = seq != 10 && seq != 20;
            ByteBuf p = RelayPair.ALLOC.buffer().writeByte(0x80).writeByte(0).writeShort(seq)
                    .writeInt(seq * 160).writeInt(0x5678).writeZero(160);
            try {
                pair.b.onPhoneMedia(calleePort, false, p, new InetSocketAddress("127.0.0.1", 40000), pair.now);
            } finally {
                p.release();
            }
            pair.now += 20_000_000L;
        }
        pair.mediaB.overlayDelivers = true;
        pair.advance(Duration.ofSeconds(4));
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-odd-bye", "tagA", "tagB", CALL_ID,
                2, "", null));
        pair.fromPhoneB(response(pair.atB(), 200, null, null));
        // The linger (30 s) passes: the call is forgotten and leaves its record.
        pair.advance(Duration.ofSeconds(40));
    }

    private CallRecords records(Path file) {
        return new CallRecords(file, "a", 20, Clock.fixed(WALL, ZoneOffset.UTC), Executors.newSingleThreadExecutor());
    }

    @Test
    void aFinishedCallWritesExactlyOneLineWithItsFiguresAndMetersItsQuality() throws Exception {
        Path file = dir.resolve("logs/calls.jsonl");
        CallRecords records = records(file);
        List<CallStatistics> heard = new ArrayList<>();
        CallEnds ends = new CallEnds(meters, records, 20);
        ends.listener(heard::add);
        pair.a.onCallEnded(ends);

        finishedCall();
        records.close(true);

        assertThat(heard).hasSize(1);
        CallStatistics call = heard.get(0);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(1);
        JsonNode r = JSON.readTree(lines.get(0));
        assertThat(r.get("node").asText()).isEqualTo("a");
        assertThat(r.get("callId").asText()).isEqualTo(CALL_ID);
        assertThat(r.get("from").asText()).isEqualTo(CALLER);
        assertThat(r.get("to").asText()).isEqualTo("sip:bob@127.0.0.1:5070");
        assertThat(r.get("state").asText()).isEqualTo("ENDED");
        assertThat(r.get("endReason").asText()).isEqualTo("bye");
        // INVITE to BYE: 1 s of media and 4 s more; forgotten 40 s after the BYE, when the record was taken.
        assertThat(r.get("durationMs").asLong()).isEqualTo(5_000);
        assertThat(r.get("end").asText()).isEqualTo("2026-11-26T19:59:20Z");
        assertThat(r.get("start").asText()).isEqualTo("2026-11-26T19:59:15Z");
        JsonNode toPhone = r.get("streams").get(0).get("toPhone");
        assertThat(toPhone.get("expected").asLong()).isEqualTo(50);
        assertThat(toPhone.get("received").asLong()).isEqualTo(48);
        assertThat(toPhone.get("lost").asLong()).isEqualTo(2);
        assertThat(toPhone.get("missedPercent").asDouble()).isEqualTo(4.0);
        // 10 ms through the overlay, 20 ms of access: R and MOS as the call's own, G.711 under 4% loss.
        assertThat(toPhone.get("meanTransitMs").asDouble()).isEqualTo(10.0);
        assertThat(r.get("rating").asDouble()).isCloseTo(call.rating(20), within(0.005)).isBetween(75.0, 80.0);
        assertThat(r.get("mos").asDouble()).isCloseTo(call.mos(20), within(0.005));
        assertThat(r.get("phoneMos").asDouble()).isZero();
        assertThat(records.counters()).containsEntry("callRecordsWritten", 1L).containsEntry("callRecordFailures", 0L);

        assertThat(registry.get("hopwise.voip.call.mos").tag("source", "relay").summary().count()).isEqualTo(1);
        assertThat(registry.get("hopwise.voip.call.mos").tag("source", "relay").summary().mean())
                .isCloseTo(call.mos(20), within(1e-9));
        assertThat(registry.get("hopwise.voip.call.mos").tag("source", "phones").summary().count()).isZero();
        assertThat(registry.get("hopwise.voip.call.missed").summary().max()).isEqualTo(4.0);
        assertThat(registry.get("hopwise.voip.media.packets").tag("direction", "toPhone").tag("kind", "lost")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get("hopwise.voip.media.packets").tag("direction", "toPhone").tag("kind", "received")
                .counter().count()).isEqualTo(48);
    }

    @Test
    void aListenerThatThrowsCostsNeitherTheRecordNorTheMeters() throws Exception {
        Path file = dir.resolve("calls.jsonl");
        CallRecords records = records(file);
        CallEnds ends = new CallEnds(meters, records, 0);
        ends.listener(c -> {
            throw new IllegalStateException("embedder's bug");
        });
        pair.a.onCallEnded(ends);

        finishedCall();
        records.close(true);

        assertThat(Files.readAllLines(file)).hasSize(1);
        assertThat(registry.get("hopwise.voip.call.mos").tag("source", "relay").summary().count()).isEqualTo(1);
        assertThat(pair.a.counters()).containsEntry("listenerFailures", 1L);
    }

    @Test
    void aCallStillHeldWhenTheRelayStopsIsRecordedAsStopped() throws Exception {
        Path file = dir.resolve("calls.jsonl");
        CallRecords records = records(file);
        pair.a.onCallEnded(new CallEnds(meters, records, 0));
        pair.fromPhoneA(SipText.invite("held-at-stop", "z9hG4bK-stop", SipText.SDP_A));
        pair.advance(Duration.ofSeconds(2));

        pair.a.close(pair.now);
        records.close(true);

        JsonNode r = JSON.readTree(Files.readAllLines(file).get(0));
        assertThat(r.get("callId").asText()).isEqualTo("held-at-stop");
        assertThat(r.get("state").asText()).isEqualTo("ENDED");
        assertThat(r.get("endReason").asText()).isEqualTo("relay stopped");
        assertThat(r.get("durationMs").asLong()).isEqualTo(2_000);
        // No media: no MOS to meter.
        assertThat(registry.get("hopwise.voip.call.mos").tag("source", "relay").summary().count()).isZero();
    }

    @Test
    void aFileThatCannotBeWrittenIsCountedNotThrown() throws Exception {
        // A directory where the file should be.
        Path file = Files.createDirectories(dir.resolve("calls.jsonl"));
        CallRecords records = records(file);
        pair.a.onCallEnded(new CallEnds(meters, records, 0));

        finishedCall();
        records.close(true);

        assertThat(records.counters()).containsEntry("callRecordsWritten", 0L).containsEntry("callRecordFailures", 1L);
        assertThat(pair.a.counters()).containsEntry("listenerFailures", 0L).containsEntry("faults", 0L);
    }

    @Test
    void aWriterThatFellBehindCostsRecordsNeverAWait() throws Exception {
        // The writer's one thread held up (a disk that stopped answering) with room for one record queued.
        ThreadPoolExecutor writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(2));
        CountDownLatch disk = new CountDownLatch(1);
        writer.execute(() -> {
            try {
                disk.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Path file = dir.resolve("calls.jsonl");
        // Its start-up check takes the first place in the queue.
        CallRecords records = new CallRecords(file, "a", 0, Clock.fixed(WALL, ZoneOffset.UTC), writer);
        CallStatistics call = new CallStatistics("c", "sip:a@x", "sip:b@y", "ENDED", "a", "b", 1000, 0, "bye",
                List.of());

        records.add(call);
        records.add(call);
        records.add(call);
        assertThat(records.counters()).containsEntry("callRecordFailures", 2L);

        disk.countDown();
        records.close(true);
        assertThat(Files.readAllLines(file)).hasSize(1);
        assertThat(records.counters()).containsEntry("callRecordsWritten", 1L);
    }
}
