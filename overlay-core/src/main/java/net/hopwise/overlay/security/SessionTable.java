package net.hopwise.overlay.security;

import io.netty.util.collection.IntObjectHashMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The indexes that name a node's sessions and its handshakes under way: a receiver's random 32-bit
 * names, which an arriving datagram carries so that it finds its keys without trusting its source
 * address. Every index is taken and given back here only, and the maps that name something by index
 * are changed here only, so that no index stays behind in one map after leaving another, nor is given
 * to two things at once. Used on the node's thread only.
 */
final class SessionTable {
    /** Looked up for every arriving datagram: keyed by the int itself, without a boxed key per lookup. */
    private final IntObjectHashMap<Session> sessions = new IntObjectHashMap<>();
    private final Map<Integer, Peer> initiations = new HashMap<>();
    private final Set<Integer> taken = new HashSet<>();

    /** A fresh index, not zero and not in use. */
    int take() {
        int i;
        do {
            i = Crypto.random().nextInt();
        } while (i == 0 || !taken.add(i));
        return i;
    }

    /** Gives back an index that names nothing any more (a pending response that expired). */
    void giveBack(int index) {
        taken.remove(index);
    }

    /** The session this node named {@code index}, or null. */
    Session session(int index) {
        return sessions.get(index);
    }

    /** The peer whose handshake this node started under {@code index}, or null. */
    Peer initiation(int index) {
        return initiations.get(index);
    }

    /** Records {@code i} as {@code p}'s handshake under way. */
    void initiate(Peer p, Initiation i) {
        p.initiation = i;
        initiations.put(i.localIndex, p);
    }

    /** The initiation under {@code index} became a session: the index now names that session. */
    void initiated(int index) {
        initiations.remove(index);
    }

    /** Drops {@code p}'s handshake under way, if any, and its index. */
    void abortInitiation(Peer p) {
        if (p.initiation != null) {
            initiations.remove(p.initiation.localIndex);
            taken.remove(p.initiation.localIndex);
            p.initiation = null;
        }
    }

    void install(Session s) {
        sessions.put(s.localIndex, s);
    }

    /** Forgets a session and gives its index back: what arrives for it is an unknown session from now on. */
    void retire(Session s) {
        sessions.remove(s.localIndex);
        taken.remove(s.localIndex);
    }
}
