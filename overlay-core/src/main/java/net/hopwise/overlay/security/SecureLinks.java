package net.hopwise.overlay.security;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Link security as applications and the admin service use it, from any thread
 * ({@code OverlayNode.module(SecureLinks.class)}): each call runs on the node's thread.
 */
public final class SecureLinks {
    private final LinkSecurity engine;
    private final Consumer<Runnable> nodeThread;
    private final Supplier<Long> now;
    private final Supplier<List<String>> peers;
    private final LinkStateSigner signer;
    private final ToLongFunction<DropReason> drops;
    private final Revocations revocations;

    /**
     * What a node keeps and spends on handshakes, for an operator: a flood shows in the cookie replies
     * and the budget's refusals, never as state beyond {@code maxPendingResponses}.
     *
     * @param pendingResponses handshakes this node answered and whose last message it awaits
     * @param maxPendingResponses the bound on them ({@code maxPendingHandshakes})
     * @param initiations handshakes this node started with its neighbours and that are not done
     * @param cookieReplies INITs without a valid cookie, answered statelessly
     * @param badCookies INITs with a cookie this node did not give to their address
     * @param rateRefused INITs with a valid cookie refused by the per-address or total handshake rate
     * @param pendingEvicted pending handshakes that gave way to newer ones at the bound
     * @param rejected completed handshakes of peers not admitted under the name they claimed
     */
    public record HandshakeState(int pendingResponses, int maxPendingResponses, int initiations, long cookieReplies,
            long badCookies, long rateRefused, long pendingEvicted, long rejected) {}

    SecureLinks(LinkSecurity engine, Consumer<Runnable> nodeThread, Supplier<Long> now, Supplier<List<String>> peers,
            LinkStateSigner signer, ToLongFunction<DropReason> drops, Revocations revocations) {
        this.revocations = revocations;
        this.engine = engine;
        this.nodeThread = nodeThread;
        this.now = now;
        this.peers = peers;
        this.signer = signer;
        this.drops = drops;
    }

    /** Every link's state: authenticated or not, the peer's fingerprint, handshakes and rekeys. */
    public CompletableFuture<List<LinkSecurity.PeerStatus>> status() {
        CompletableFuture<List<LinkSecurity.PeerStatus>> f = new CompletableFuture<>();
        nodeThread.accept(() -> {
            List<LinkSecurity.PeerStatus> out = new ArrayList<>();
            for (String p : peers.get()) {
                LinkSecurity.PeerStatus s = engine.status(p, now.get());
                if (s != null) {
                    out.add(s);
                }
            }
            f.complete(out);
        });
        return f;
    }

    /**
     * Replaces what the node admits and cuts off, at once, every link whose peer it no longer admits
     * (a revoked key or certificate). Link state is verified under the new admission too: a revoked
     * node's next advertisement or record is refused wherever it comes from (relayed by a third node
     * as well), and what the node holds of it ages out. The revocation lists this node applied
     * ({@link #publishRevocations}) stay applied on top of it while it trusts their authority.
     * Completes with the names cut off.
     */
    public CompletableFuture<List<String>> updateAdmission(Admission admission) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        nodeThread.accept(() -> f.complete(revocations.admission(admission)));
        return f;
    }

    /**
     * Gives the node a renewed certificate while it runs (the same name and identity key, a later
     * validity), without dropping any link: its handshakes present the new certificate from now on,
     * so each peer takes it at the link's next rekey, and the next link-state version the node
     * originates carries it. Renew well before the old certificate expires, at least a rekey
     * interval ({@code rekeyAfter}) and a link-state refresh before. Completes exceptionally, with
     * nothing changed, when the certificate is not for this node's name and key or when this node's
     * own admission would not admit it now (another authority, revoked, not yet or no longer valid).
     */
    public CompletableFuture<Void> renewCertificate(NodeCertificate renewed) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        nodeThread.accept(() -> {
            try {
                SecurityConfig config = engine.config();
                if (config.certificate() == null) {
                    throw new IllegalStateException(config.name() + " has no certificate to renew: it is admitted"
                            + " by a trusted-keys list");
                }
                SecurityConfig next = config.withCertificate(renewed); // checks the name and the key
                Admission.Verdict v = next.admission().check(next.name(), renewed.identityKey(), renewed,
                        next.wallClockSeconds().getAsLong());
                if (!v.admitted()) {
                    throw new IllegalArgumentException("the renewed certificate is not admitted here: " + v);
                }
                engine.renewCertificate(renewed);
                if (signer != null) {
                    signer.renewCertificate(renewed);
                }
                f.complete(null);
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /**
     * Applies an authority's revocation list here and floods it through the overlay as this node's
     * link-state record: every node whose admission trusts that authority applies it as it arrives (it
     * needs no more trust in this node than in any relay: the authority's signature is checked), so
     * telling one node is enough, and every node that applies it carries it on as its own record, so
     * it outlives this node. A node applies a list only when it is newer than the last it applied from
     * the authority; the list replaces that one (a revocation it leaves out is withdrawn), adds its
     * revocations to the node's own admission, cuts off the revoked peers' links at once and refuses
     * their link state from then on (as {@link #updateAdmission}).
     * Completes with the peers this node cut off, or exceptionally, nothing changed, when this node
     * does not admit by that authority, the signature does not verify, the list is older than one
     * applied, or it is too large for a record ({@code ModuleContext.maxExtensionBytes}).
     */
    public CompletableFuture<List<String>> publishRevocations(RevocationList list) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        nodeThread.accept(() -> {
            try {
                f.complete(revocations.publish(list));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /** The node's handshake state and the counts of what it refused, for the admin service. */
    public CompletableFuture<HandshakeState> handshakes() {
        CompletableFuture<HandshakeState> f = new CompletableFuture<>();
        nodeThread.accept(() -> {
            int initiations = 0;
            for (String name : peers.get()) {
                Peer p = engine.peer(name);
                if (p != null && p.initiation != null) {
                    initiations++;
                }
            }
            f.complete(new HandshakeState(engine.pendingHandshakes(), engine.config().maxPendingHandshakes(),
                    initiations, engine.cookieReplies(), drops.applyAsLong(DropReason.BAD_COOKIE),
                    drops.applyAsLong(DropReason.HANDSHAKE_RATE), drops.applyAsLong(DropReason.PENDING_LIMIT),
                    drops.applyAsLong(DropReason.REJECTED)));
        });
        return f;
    }

    /**
     * What verifying other nodes' link state has cost this node (Ed25519 verifications, cache hits,
     * refusals); empty when this node's link state is not signed.
     */
    public CompletableFuture<java.util.Optional<LinkStateSigner.Stats>> linkStateVerification() {
        CompletableFuture<java.util.Optional<LinkStateSigner.Stats>> f = new CompletableFuture<>();
        nodeThread.accept(() -> f.complete(java.util.Optional.ofNullable(signer).map(LinkStateSigner::stats)));
        return f;
    }

    /**
     * Cookie replies this node has sent: INITs without a valid cookie, from anyone, each answered
     * statelessly; a handshake flood shows here (also as the meter {@code hopwise.security.cookie.replies}).
     */
    public long cookieReplies() {
        return engine.cookieReplies();
    }
}
