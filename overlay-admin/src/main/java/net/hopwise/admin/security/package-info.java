/**
 * Operator authentication: a bearer token and/or a user and password (basic), checked in constant
 * time by one filter, stateless. Changes always need them; reads only when configured. There is no
 * default credential: with none configured, changes are disabled, except in the demo, whose
 * documented credentials are demo / demo.
 */
package net.hopwise.admin.security;
