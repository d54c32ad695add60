{#- pandas' own html_table.tpl, with every th and td also styled inline: JupyterLab strips the
    <style> block from an untrusted notebook's outputs but keeps style attributes. -#}
{% extends "html_table.tpl" %}
{% block head_tr %}
    <tr>
{% for c in r %}
{% if c.is_visible != False %}
      <{{c.type}} {%- if c.id is defined %} id="T_{{uuid}}_{{c.id}}" {%- endif %} class="{{c.class}}" style="{{cell_style}}" {{c.attributes}}>{{c.display_value}}</{{c.type}}>
{% endif %}
{% endfor %}
    </tr>
{% endblock head_tr %}
{% block tr %}
    <tr>
{% for c in r %}{% if c.is_visible != False %}
      <{{c.type}} {%- if c.id is defined %} id="T_{{uuid}}_{{c.id}}" {%- endif %} class="{{c.class}}" style="{{cell_style}}" {{c.attributes}}>{{c.display_value}}</{{c.type}}>
{% endif %}{% endfor %}
    </tr>
{% endblock tr %}
