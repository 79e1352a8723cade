package net.hopwise.overlay.security;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Link security as applications and the admin service use it, from any thread
 * ({@code OverlayNode.module(SecureLinks.class)}): each call runs on the node's thread.
 */
public final class SecureLinks {
    private final LinkSecurity engine;
    private final Consumer<Runnable> nodeThread;
    private final Supplier<Long> now;
    private final Supplier<List<String>> peers;

    SecureLinks(LinkSecurity engine, Consumer<Runnable> nodeThread, Supplier<Long> now, Supplier<List<String>> peers) {
        this.engine = engine;
        this.nodeThread = nodeThread;
        this.now = now;
        this.peers = peers;
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
     * (a revoked key or certificate). Completes with the names cut off.
     */
    public CompletableFuture<List<String>> updateAdmission(Admission admission) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        nodeThread.accept(() -> f.complete(engine.updateAdmission(admission, now.get())));
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
