package net.hopwise.multicast;

import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.RouteView;

/** A test module that hands the test a node's {@link RouteView}, to check trees against unicast paths. */
final class RoutesProbe implements OverlayModule {
    interface View {
        RouteView routes();
    }

    @Override
    public String name() {
        return "routes-probe";
    }

    @Override
    public void install(ModuleContext context) {
        RouteView routes = context.routes();
        context.provide(View.class, () -> routes);
    }
}
