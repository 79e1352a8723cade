package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mutated calls thrown at two relays on virtual time: valid messages of every kind the relays meet
 * (INVITE with SDP, responses, ACK, BYE, CANCEL, REGISTER, re-INVITE, envelopes between relays) with
 * lines deleted, duplicated or swapped, bytes flipped, truncations, hostile values and SDP with many
 * streams. Nothing may escape as an exception (the relays' fault counter stays zero), no buffer may
 * leak, and once time passes both relays hold nothing. Seeded; the seed is in every failure message.
 */
class RelayFuzzTest {
    private static final long SEED = Long.getLong("voip.relay.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("voip.relay.fuzz.count", 20_000);

    @Test
    void mutatedSignallingNeverFaultsOrLeaksAndLeavesNoState() {
        Random random = new Random(SEED);
        RelayPair pair = new RelayPair();
        List<String> corpus = corpus(pair);
        for (int i = 0; i < ROUNDS; i++) {
            String base = corpus.get(random.nextInt(corpus.size()));
            byte[] mutated = mutate(base, random);
            int target = random.nextInt(4);
            ByteBuf buf = RelayPair.ALLOC.buffer().writeBytes(mutated);
            try {
                switch (target) {
                    case 0 -> pair.a.onPhoneDatagram(buf, RelayPair.PHONE_A, pair.now);
                    case 1 -> pair.b.onPhoneDatagram(buf, RelayPair.PHONE_B, pair.now);
                    default -> {
                        ByteBuf env = RelayEnvelope.encode(buf, random.nextBoolean() ? new int[] {4000 + i % 7}
                                : new int[random.nextInt(3)], RelayPair.ALLOC);
                        try {
                            if (random.nextInt(10) == 0) {
                                env.setByte(random.nextInt(Math.min(5, env.readableBytes())), random.nextInt(256));
                            }
                            (target == 2 ? pair.b : pair.a).onNodeMessage(target == 2 ? "a" : "b", env, pair.now);
                        } finally {
                            env.release();
                        }
                    }
                }
            } finally {
                buf.release();
            }
            pair.pump();
            if (i % 500 == 0) {
                pair.advance(Duration.ofMillis(random.nextInt(5000)));
            }
            pair.inbox.clear();
            assertNoFault(pair, i);
        }
        for (int s = 0; s < 4; s++) {
            pair.advance(Duration.ofSeconds(3700));
        }
        assertNoFault(pair, ROUNDS);
        assertThat(pair.a.state().idle()).as("relay a after the fuzz, seed %d: %s", SEED, pair.a.state()).isTrue();
        assertThat(pair.b.state().idle()).as("relay b after the fuzz, seed %d: %s", SEED, pair.b.state()).isTrue();
        assertThat(pair.mediaA.bound).isEmpty();
        assertThat(pair.mediaB.overlayPorts).isEmpty();
    }

    private static void assertNoFault(RelayPair pair, int round) {
        for (SipProxy relay : List.of(pair.a, pair.b)) {
            if (relay.counters().get("faults") != 0) {
                StringWriter trace = new StringWriter();
                relay.lastFault().printStackTrace(new PrintWriter(trace));
                throw new AssertionError("relay " + relay.nodeName + " faulted at round " + round + ", seed " + SEED
                        + ":\n" + trace);
            }
        }
    }

    /** Valid messages from a real call's exchange, as each relay meets them. */
    private static List<String> corpus(RelayPair pair) {
        List<String> out = new ArrayList<>();
        String invite = SipText.invite("fz-1", "z9hG4bK-fz1", SipText.SDP_A);
        out.add(invite);
        pair.fromPhoneA(invite);
        String atB = pair.atB();
        out.add(atB);
        out.add(SipText.response(atB, 180, "tagB", null));
        out.add(SipText.response(atB, 183, "tagB", SipText.SDP_B));
        out.add(SipText.response(atB, 200, "tagB", SipText.SDP_B));
        out.add(SipText.response(atB, 486, "tagB", null));
        out.add(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-fz2", "tagA", "tagB", "fz-1", 1, "", null));
        out.add(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-fz3", "tagA", "tagB", "fz-1", 2,
                "Route: <sip:127.0.0.1:5060;lr;hwnode=a>, <sip:127.0.0.1:5062;lr;hwnode=b>\r\n", null));
        out.add(SipText.request("CANCEL", "sip:bob@127.0.0.1:5070", "z9hG4bK-fz1", "tagA", null, "fz-1", 1, "", null));
        out.add(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-fz4", "tagA", "tagB", "fz-1", 3, "",
                SipText.sdp("0.0.0.0", 41000, "53655765", 2, "a=inactive\r\nm=video 41002 RTP/AVP 96\r\n")));
        out.add("REGISTER sip:example.org SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK-fzr\r\n"
                + "From: <sip:bob@example.org>;tag=r\r\nTo: <sip:bob@example.org>\r\nCall-ID: fz-reg\r\n"
                + "CSeq: 1 REGISTER\r\nContact: <sip:bob@127.0.0.1:5070>;expires=120, *\r\nContent-Length: 0\r\n\r\n");
        StringBuilder many = new StringBuilder(SipText.sdp("127.0.0.1", 41000, "1", 1, ""));
        for (int i = 0; i < 40; i++) {
            many.append("m=audio ").append(42000 + 2 * i).append(" RTP/AVP 0\r\n");
        }
        out.add(SipText.invite("fz-many", "z9hG4bK-fzm", many.toString()));
        pair.inbox.clear();
        return out;
    }

    private static byte[] mutate(String base, Random r) {
        List<String> lines = new ArrayList<>(Arrays.asList(base.split("\r\n", -1)));
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits && !lines.isEmpty(); e++) {
            int at = r.nextInt(lines.size());
            switch (r.nextInt(9)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, lines.get(r.nextInt(lines.size())));
                case 2 -> {
                    int other = r.nextInt(lines.size());
                    String t = lines.get(at);
                    lines.set(at, lines.get(other));
                    lines.set(other, t);
                }
                case 3 -> lines.set(at, lines.get(at).replaceAll("[0-9]+", r.nextBoolean() ? "99999999999" : "-1"));
                case 4 -> lines.add(at, pick(r, "Route: <sip:10.9.9.9;lr;hwnode=zz>", "Max-Forwards: 0",
                        "Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKhw61.0.1", "Content-Length: 5",
                        "To: <sip:bob@127.0.0.1:5070>;tag=other", "Call-ID: fz-1", "CSeq: 1 ACK",
                        "Contact: *", "Expires: 0", "Record-Route: <sip:127.0.0.1:5062;lr;hwnode=b>"));
                case 5 -> lines.set(at, lines.get(at).replace("tag=", "tag=x"));
                case 6 -> lines.set(at, lines.get(at).replace("fz-1", "fz-" + r.nextInt(4)));
                default -> { }
            }
        }
        byte[] bytes = String.join("\r\n", lines).getBytes(StandardCharsets.UTF_8);
        switch (r.nextInt(6)) {
            case 0 -> bytes = Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
            case 1 -> {
                for (int f = 0; f < 1 + r.nextInt(4) && bytes.length > 0; f++) {
                    bytes[r.nextInt(bytes.length)] = (byte) r.nextInt(256);
                }
            }
            default -> { }
        }
        return bytes;
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }
}
