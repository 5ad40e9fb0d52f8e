# Sphinx configuration of the collection's HTML documentation site (`make docs`). It is the conf.py that
# `antsibull-docs sphinx-init` writes, less what fetches: no intersphinx (the docs.ansible.com, Python and Jinja
# inventories), so the site builds offline. The few labels of the Ansible documentation that the generated pages
# refer to (common return values, ansible.builtin plugins, ...) resolve to links to docs.ansible.com below.

import re

from docutils import nodes

project = 'nfv.vnflcm'
copyright = 'nfv.vnflcm maintainers'

title = 'nfv.vnflcm Collection Documentation'
html_short_title = 'nfv.vnflcm'

extensions = ['sphinx_antsibull_ext']

pygments_style = 'ansible'

highlight_language = 'YAML+Jinja'

html_theme = 'sphinx_ansible_theme'
html_show_sphinx = False

display_version = False

# The theme's top bar: a link to the Ansible documentation only (not the Ansible blog or forum).
html_theme_options = {
    'topbar_links': {'Ansible documentation': 'https://docs.ansible.com/'},
}

html_use_smartypants = True
html_use_modindex = False
html_use_index = False
html_copy_source = False

default_role = 'any'

# Every reference must resolve: an unresolved one is a warning, and `make docs` fails on warnings (-W).
nitpicky = True


# Labels of the Ansible documentation (what intersphinx would resolve), as links: path under ANSIBLE_DOCS, title.
ANSIBLE_DOCS = 'https://docs.ansible.com/projects/ansible/latest/'
ANSIBLE_LABELS = {
    'common_return_values': ('reference_appendices/common_return_values.html', 'Return Values'),
    'ansible_configuration_settings': ('reference_appendices/config.html', 'Ansible Configuration Settings'),
}
# A plugin page of ansible-core's own collection: ansible_collections.ansible.builtin.<name>_<type>.
BUILTIN_PLUGIN = re.compile(r'ansible_collections\.ansible\.builtin\.(\w+)_(\w+)')


def _ansible_docs_reference(app, env, node, contnode):
    """Resolve a :ref: to the Ansible documentation that no page here defines; anything else stays unresolved."""
    if node.get('refdomain') != 'std' or node.get('reftype') != 'ref':
        return None
    target = node.get('reftarget', '')
    plugin = BUILTIN_PLUGIN.fullmatch(target)
    if target in ANSIBLE_LABELS:
        path, title = ANSIBLE_LABELS[target]
    elif plugin:
        path, title = f'collections/ansible/builtin/{plugin[1]}_{plugin[2]}.html', f'ansible.builtin.{plugin[1]}'
    else:
        return None
    if not node.get('refexplicit'):
        contnode = nodes.inline(title, title)
    reference = nodes.reference('', '', internal=False, refuri=ANSIBLE_DOCS + path, reftitle=title)
    reference += contnode
    return reference


def _home_link(app, pagename, templatename, context, doctree):
    """The top bar's logo links to this site's index page, relative to each page (the theme's default is the web
    server's root, which a site opened from disk does not have)."""
    context['theme_documentation_home_url'] = context['pathto'](app.config.root_doc)


def setup(app):
    app.connect('missing-reference', _ansible_docs_reference)
    app.connect('html-page-context', _home_link)
