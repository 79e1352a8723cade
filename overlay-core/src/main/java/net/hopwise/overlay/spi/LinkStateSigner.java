package net.hopwise.overlay.spi;

import net.hopwise.overlay.NodeId;

/**
 * Signs what this node originates in link state (its advertisements and every module's extension
 * records) and verifies what other nodes originated, so that a node admitted to the overlay still
 * cannot forge another node's links, memberships or registrations. Installed by at most one module
 * ({@link ModuleContext#signLinkState}); without one, link state is taken on its sender's word.
 *
 * <p>What is signed is the version's content without its age (which grows hop by hop): for an
 * advertisement its origin, sequence, name and links, for an extension record its origin, kind,
 * sequence and bytes, each behind a domain tag so that one kind of content can never be passed off as
 * the other. A node verifies a version once, when it is newer than what it holds, before anything of
 * it is installed, acknowledged as news or flooded on; a copy it already holds costs nothing.
 *
 * <p>Called on the node's event loop; implementations must not block. Verification dominates the cost
 * of flooding under a signer, which is why copies the node holds are never verified again.
 */
public interface LinkStateSigner {
    /** The longest signature {@link #sign} makes: 1 to 255 bytes. */
    int maxSignatureBytes();

    /** This node's signature over {@code content}, at most {@link #maxSignatureBytes()} long. */
    byte[] sign(byte[] content);

    /**
     * Whether {@code signature} over {@code content} is {@code origin}'s. False for an origin the
     * signer does not admit; must not throw for any bytes. {@code originName} is the origin's name,
     * already checked to be the one {@code origin} is derived from ({@link NodeId#ofName}), so a
     * signer that keeps keys by name may look them up by it.
     */
    boolean verify(NodeId origin, String originName, byte[] content, byte[] signature);
}
