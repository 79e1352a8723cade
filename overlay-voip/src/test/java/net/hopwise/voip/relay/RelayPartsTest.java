package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipParser;
import org.junit.jupiter.api.Test;

/** The relay's small parts: URIs, dial plan, registrar, port pool, envelope, reception counters, E-model. */
class RelayPartsTest {
    @Test
    void sipUrisGiveUserHostPortAndParameters() {
        SipUri u = SipUri.parse("sip:Bob@Example.COM:5070;transport=tcp;lr?x=y");
        assertThat(u.user()).isEqualTo("Bob");
        assertThat(u.host()).isEqualTo("example.com");
        assertThat(u.port()).isEqualTo(5070);
        assertThat(u.param("transport")).isEqualTo("tcp");
        assertThat(u.param("lr")).isEmpty();
        assertThat(SipUri.parse("sip:[2001:db8::1]:5060").host()).isEqualTo("2001:db8::1");
        assertThat(SipUri.parse("sip:[2001:db8::1]:5060").hostPort()).isEqualTo("[2001:db8::1]:5060");
        assertThat(SipUri.parse("tel:+331234")).isNull();
        assertThat(SipUri.parse("sip:host:99999")).isNull();
        assertThat(SipUri.parse("sip:@")).isNull();
    }

    @Test
    void theDialPlanPrefersDomainsThenTheLongestPrefix() {
        DialPlan plan = DialPlan.parse(List.of("prefix:33=paris", "prefix:3375=lyon", "example.net=berlin", "bob=b"));
        assertThat(plan.nodeFor(SipUri.parse("sip:33751234@example.net"))).contains("berlin");
        assertThat(plan.nodeFor(SipUri.parse("sip:33751234@10.0.0.1"))).contains("lyon");
        assertThat(plan.nodeFor(SipUri.parse("sip:33123@10.0.0.1"))).contains("paris");
        assertThat(plan.nodeFor(SipUri.parse("sip:bob@10.0.0.1"))).contains("b");
        assertThat(plan.nodeFor(SipUri.parse("sip:alice@10.0.0.1"))).isEmpty();
        assertThatThrownBy(() -> DialPlan.Rule.parse("nonode")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRegistrarBindsExpiresAndRemoves() {
        Registrar r = new Registrar(60, 3600);
        InetSocketAddress phone = new InetSocketAddress("127.0.0.1", 5090);
        long t = 0;
        assertThat(register(r, "<sip:bob@127.0.0.1:5090>", "120", phone, t).status()).isEqualTo(200);
        Registrar.Binding b = r.lookup(SipUri.parse("sip:bob@example.org"), t);
        assertThat(b.contactUri()).isEqualTo("sip:bob@127.0.0.1:5090");
        assertThat(b.source()).isEqualTo(phone);
        assertThat(register(r, "<sip:bob@127.0.0.1:5090>", "10", phone, t).status()).isEqualTo(423);
        assertThat(register(r, "<sip:bob@127.0.0.1:5090>", "999999", phone, t).bindings().get(0).expiresAtNanos())
                .isEqualTo(Duration.ofSeconds(3600).toNanos());
        assertThat(r.lookup(SipUri.parse("sip:bob@example.org"), Duration.ofSeconds(3601).toNanos())).isNull();
        assertThat(r.size()).isZero();
        register(r, "<sip:bob@127.0.0.1:5090>", "120", phone, t);
        assertThat(register(r, "*", "0", phone, t).status()).isEqualTo(200);
        assertThat(r.size()).isZero();
    }

    private static Registrar.Outcome register(Registrar r, String contact, String expires, InetSocketAddress from,
            long now) {
        String msg = "REGISTER sip:example.org SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5090;branch=z9hG4bK-r\r\n"
                + "From: <sip:bob@example.org>;tag=1\r\nTo: <sip:bob@example.org>\r\nCall-ID: reg\r\n"
                + "CSeq: 1 REGISTER\r\nContact: " + contact + "\r\nExpires: " + expires + "\r\nContent-Length: 0\r\n\r\n";
        ByteBuf buf = RelayPair.ALLOC.buffer().writeBytes(msg.getBytes(StandardCharsets.UTF_8));
        SipParseResult p = new SipParser().parseDatagram(buf);
        try {
            return r.register(p.message(), from, false, now);
        } finally {
            p.release();
            buf.release();
        }
    }

    @Test
    void thePortPoolHandsOutEvenPairsRoundRobinSkipsBusyOnesAndRefillsToFull() {
        PortPool pool = new PortPool(30001, 30007);
        assertThat(pool.capacity()).isEqualTo(3);
        assertThat(pool.acquire(p -> p != 30002)).isEqualTo(30004);
        assertThat(pool.acquire(p -> true)).isEqualTo(30006);
        assertThat(pool.acquire(p -> true)).isEqualTo(30002);
        assertThat(pool.acquire(p -> true)).isEqualTo(-1);
        pool.release(30004);
        pool.release(30006);
        pool.release(30002);
        assertThat(pool.available()).isEqualTo(3);
        assertThatThrownBy(() -> pool.release(30002)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEnvelopeCarriesPortsBesideTheMessageAndABrokenOneIsRefused() {
        ByteBuf sip = RelayPair.ALLOC.buffer().writeBytes("OPTIONS sip:x SIP/2.0\r\n".getBytes(StandardCharsets.UTF_8));
        ByteBuf env = RelayEnvelope.encode(sip, new int[] {4000, 0}, RelayPair.ALLOC);
        try {
            assertThat(RelayEnvelope.decode(env)).containsExactly(4000, 0);
            assertThat(env.toString(StandardCharsets.UTF_8)).startsWith("OPTIONS");
            env.readerIndex(0).setByte(0, 'X');
            assertThat(RelayEnvelope.decode(env)).isNull();
            env.setByte(0, 'H').setByte(2, 200);
            assertThat(RelayEnvelope.decode(env)).isNull();
        } finally {
            sip.release();
            env.release();
        }
    }

    /**
     * A new RTP source numbers its packets from a random start: its first packet is no gap after the
     * last source's, and a packet of it that repeats a number the old one used is no duplicate.
     */
    @Test
    void aNewSourceStartsItsOwnSequenceAndKeepsWhatWasExpected() {
        ReceptionStats s = new ReceptionStats(16, Long.MAX_VALUE);
        for (int i = 100; i < 150; i++) {
            if (i != 120) {
                s.record(i, 0, 172);
            }
        }
        s.newSource();
        for (int i = 40_000; i < 40_050; i++) {
            assertThat(s.record(i, 0, 172)).isEqualTo(ReceptionStats.Verdict.FORWARD);
        }
        s.newSource();
        for (int i = 110; i < 130; i++) {
            assertThat(s.record(i, 0, 172)).as("%d", i).isEqualTo(ReceptionStats.Verdict.FORWARD);
        }
        assertThat(s.expected()).isEqualTo(120);
        assertThat(s.received()).isEqualTo(119);
        assertThat(s.lost()).isEqualTo(1);
        assertThat(s.duplicates()).isZero();
        ReceptionStats unaware = new ReceptionStats(16, Long.MAX_VALUE);
        unaware.record(149, 0, 172);
        unaware.record(30_000, 0, 172);
        assertThat(unaware.lost()).as("without it, the jump reads as loss").isGreaterThan(10_000);
    }

    @Test
    void receptionCountsLossDuplicatesAcrossSixteenBitWrapAndRfc3550Jitter() {
        ReceptionStats s = new ReceptionStats(16, Long.MAX_VALUE);
        for (int i = 65530; i < 65536 + 10; i++) {
            if (i == 65534 || i == 3 + 65536) {
                continue;
            }
            assertThat(s.record(i & 0xFFFF, 1_000_000, 172)).isEqualTo(ReceptionStats.Verdict.FORWARD);
        }
        assertThat(s.record(65535, 1_000_000, 172)).isEqualTo(ReceptionStats.Verdict.DUPLICATE);
        assertThat(s.expected()).isEqualTo(16);
        assertThat(s.lost()).isEqualTo(2);
        assertThat(s.duplicates()).isEqualTo(1);
        assertThat(s.jitterNanos()).isZero();

        ReceptionStats j = new ReceptionStats(32, Long.MAX_VALUE);
        for (int i = 0; i < 2000; i++) {
            j.record(i, i % 2 == 0 ? 0 : 4_000_000, 172);
        }
        // |D| is always 4 ms, so J converges to 4 ms (RFC 3550 section 6.4.1).
        assertThat(j.jitterNanos()).isCloseTo(4_000_000, org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void theEModelGivesTheAnchorsWorkedNumbersForG711WithConcealment() {
        assertThat(EModel.rating(EModel.G711_PLC, 50, 0, 1)).isCloseTo(92.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(EModel.mos(EModel.rating(EModel.G711_PLC, 50, 0, 1))).isCloseTo(4.38,
                org.assertj.core.data.Offset.offset(0.01));
        assertThat(EModel.mos(EModel.rating(EModel.G711_PLC, 50, 1, 1))).isCloseTo(4.30,
                org.assertj.core.data.Offset.offset(0.01));
        assertThat(EModel.mos(EModel.rating(EModel.G711_PLC, 50, 5, 1))).isCloseTo(3.87,
                org.assertj.core.data.Offset.offset(0.01));
        assertThat(EModel.mos(EModel.rating(EModel.G711_PLC, 50, 10, 1))).isCloseTo(3.35,
                org.assertj.core.data.Offset.offset(0.01));
        assertThat(EModel.mos(-5)).isEqualTo(1);
        assertThat(EModel.mos(120)).isEqualTo(4.5);
    }
}
