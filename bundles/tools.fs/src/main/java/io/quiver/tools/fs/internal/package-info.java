/** Quiver built-in tools: files under configured roots (read, write, edit, list, search), confined to those roots. */
package io.quiver.tools.fs.internal;
