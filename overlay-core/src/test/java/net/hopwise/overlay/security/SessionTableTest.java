package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The index bookkeeping that left LinkSecurity: an index names one thing at a time, and whatever
 * stops naming something (a retired session, an aborted handshake) finds nothing by its index any more.
 */
class SessionTableTest {
    private static final byte[][] KEYS = {Crypto.randomBytes(32), Crypto.randomBytes(32)};

    @Test
    void indexesAreNeverZeroNorTakenTwiceWhileInUse() {
        SessionTable table = new SessionTable();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            int index = table.take();
            assertThat(index).isNotZero();
            assertThat(seen.add(index)).as("index %d taken twice", index).isTrue();
        }
    }

    @Test
    void aRetiredSessionIsNoLongerFoundByItsIndex() {
        SessionTable table = new SessionTable();
        Session s = new Session(CipherSuite.AES_GCM, "b", table.take(), 7, true, KEYS, 256, 0, new byte[32]);
        table.install(s);
        assertThat(table.session(s.localIndex)).isSameAs(s);
        table.retire(s);
        assertThat(table.session(s.localIndex)).isNull();
    }

    @Test
    void anAbortedInitiationLeavesNeitherThePeerNorTheIndexBehind() {
        SessionTable table = new SessionTable();
        Peer p = new Peer("b", new InetSocketAddress("127.0.0.1", 9));
        Initiation i = new Initiation(table.take(), null, 0);
        table.initiate(p, i);
        assertThat(table.initiation(i.localIndex)).isSameAs(p);
        assertThat(p.initiation).isSameAs(i);
        table.abortInitiation(p);
        assertThat(table.initiation(i.localIndex)).isNull();
        assertThat(p.initiation).isNull();
    }

    @Test
    void anInitiationThatBecameASessionIsFoundAsTheSessionOnly() {
        SessionTable table = new SessionTable();
        Peer p = new Peer("b", new InetSocketAddress("127.0.0.1", 9));
        Initiation i = new Initiation(table.take(), null, 0);
        table.initiate(p, i);
        Session s = new Session(CipherSuite.AES_GCM, "b", i.localIndex, 7, true, KEYS, 256, 0, new byte[32]);
        table.initiated(i.localIndex);
        table.install(s);
        assertThat(table.initiation(i.localIndex)).isNull();
        assertThat(table.session(i.localIndex)).isSameAs(s);
    }
}
