/**
 * Named plugins and the registry that finds them. It lives in the lowest module so that every
 * module (engines, eviction policies, workloads, targets) finds its plugins the same way.
 */
package org.edgelab.plugin;
