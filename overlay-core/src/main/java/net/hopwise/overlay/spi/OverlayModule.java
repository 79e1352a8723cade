package net.hopwise.overlay.spi;

/**
 * A capability added to a node from outside its core: installed on {@code NodeConfig.Builder.module},
 * it gets a {@link ModuleContext} once per node start (a restart installs it anew) through which it
 * registers its packet types, stages, link-state extensions and API.
 *
 * <p>A module instance describes the capability and may be shared by several nodes' configurations;
 * keep per-node state in what {@link #install} builds, not in the module's fields.
 */
public interface OverlayModule {
    /** A short name, unique among a node's modules: named in stage names, logs and errors. */
    String name();

    /** Called on the node's thread while the node is built, before any datagram arrives. */
    void install(ModuleContext context);
}
