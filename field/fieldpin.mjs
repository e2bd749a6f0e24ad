// Locate a pinned npm package that field/run.sh put into field/.cache/npm/
// (an unpacked registry tarball, or an install with its dependencies), and
// check its package.json names the pinned version, so
// a field adapter never audits some other release. A missing or stale
// install is a clear error on stderr and exit status 3.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** The cache directory field/run.sh uses for the pin `name@version`. */
export function pinDir(name, version) {
	return join(here, '.cache', 'npm', `${name.replace(/^@/, '').replace('/', '-')}-${version}`)
}

/**
 * The package directory of `name@version`, checked: the unpacked tarball
 * (`<pin>/package`), or `<pin>/node_modules/<name>` when the pin was
 * installed with its dependencies.
 */
export function pinnedPackage(name, version) {
	const pin = pinDir(name, version)
	const dir = existsSync(join(pin, 'package')) ? join(pin, 'package') : join(pin, 'node_modules', name)
	let manifest
	try {
		manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
	} catch (e) {
		process.stderr.write(`field audit needs ${name}@${version} in ${dir}: ${e.message}; run field/run.sh --install-only\n`)
		process.exit(3)
	}
	if (manifest.name !== name || manifest.version !== version) {
		process.stderr.write(`field audit needs ${name}@${version} but ${dir} holds ${manifest.name}@${manifest.version}\n`)
		process.exit(3)
	}
	return dir
}

/** Import a module file of a pinned package by its path inside the package. */
export function importFrom(dir, path) {
	return import(pathToFileURL(join(dir, path)).href)
}
