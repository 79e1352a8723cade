package net.hopwise.overlay.security;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * Authority-signed revocation lists carried by link state ({@link RevocationList#KIND}): a list given
 * to any one node floods as that node's record, and every node whose admission is an authority's
 * that trusts the list's signer applies it as it arrives, so that telling one node is enough. The
 * carrier needs no trust: the authority's signature is checked, and a list applies only when it is
 * newer than the last applied from its authority. Used on the node's thread.
 */
final class Revocations {
    private final ModuleContext ctx;
    private final LinkSecurity engine;
    private final LinkStateSigner signer;
    private final Runnable afterEngine;
    private final LinkStateExtension extension;
    /** The version of the last list applied, by authority key in hex. */
    private final Map<String, Long> applied = new HashMap<>();

    Revocations(ModuleContext ctx, LinkSecurity engine, LinkStateSigner signer, Runnable afterEngine) {
        this.ctx = ctx;
        this.engine = engine;
        this.signer = signer;
        this.afterEngine = afterEngine;
        // Applied once the node's thread is done with the update that brought it, so that links are not
        // cut from inside the routing's handling of a frame.
        this.extension = ctx.linkStateExtension(RevocationList.KIND, (origin, record) -> {
            if (record != null) {
                RevocationList.decode(record).ifPresent(list -> ctx.execute(() -> apply(list)));
            }
        });
    }

    /**
     * Applies {@code list} when it is for this node's authority, newer than the last applied from it,
     * and signed by it: the peers cut off, or null when it does not apply.
     */
    List<String> apply(RevocationList list) {
        if (!(engine.config().admission() instanceof AuthorityAdmission current) || !current.trusts(list.authorityKey())) {
            return null;
        }
        String authority = HexFormat.of().formatHex(list.authorityKey());
        Long last = applied.get(authority);
        if (last != null && list.version() <= last || !list.signatureValid()) {
            return null;
        }
        applied.put(authority, list.version());
        AuthorityAdmission next = current.revoking(list);
        signer.updateAdmission(next);
        List<String> cut = engine.updateAdmission(next, ctx.nowNanos());
        afterEngine.run();
        return cut;
    }

    /** Applies {@code list} here and floods it; see {@link SecureLinks#publishRevocations}. */
    List<String> publish(RevocationList list) {
        if (!(engine.config().admission() instanceof AuthorityAdmission current) || !current.trusts(list.authorityKey())) {
            throw new IllegalArgumentException("this node does not admit by the authority that signed " + list);
        }
        if (!list.signatureValid()) {
            throw new IllegalArgumentException(list + " is not signed by its authority");
        }
        Long last = applied.get(HexFormat.of().formatHex(list.authorityKey()));
        if (last != null && list.version() < last) {
            throw new IllegalArgumentException(list + " is older than version " + last + ", applied here already");
        }
        byte[] record = list.encode();
        if (record.length > ctx.maxExtensionBytes()) {
            throw new IllegalArgumentException(list + " takes " + record.length + " bytes, more than a link-state record"
                    + " holds here (" + ctx.maxExtensionBytes() + ")");
        }
        List<String> cut = apply(list);
        extension.publish(record);
        return cut == null ? List.of() : cut;
    }
}
