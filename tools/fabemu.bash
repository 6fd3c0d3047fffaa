# bash completion for fabemu (installed to share/bash-completion/completions):
# its commands, each command's options (as `fabemu COMMAND --help` lists
# them), experiment files for run/check/topo and folders for compare/plot.
_fabemu()
{
	local cur prev cmd opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W 'run check topo bench compare plot live --help --version' -- "$cur"))
		return
	fi
	case $cmd in
	run) opts='-o --output --seed --threads --partitions --set --max-wall -q --quiet --sweep --seeds --metric -j --jobs -h --help' ;;
	check) opts='-o --output --junit --baseline --skip-nightly --seed --threads --partitions --set --max-wall -q --quiet --sweep --seeds --metric -j --jobs -h --help' ;;
	topo) opts='--dot -h --help' ;;
	bench) opts='--quick --deep --ai --json --repeat --seed --threads --partitions --set -h --help' ;;
	compare) opts='--tolerance --markdown --metrics -h --help' ;;
	plot) opts='-o --output --format -h --help' ;;
	live) opts='-o --output --seed --threads --partitions --set --max-wall -q --quiet --check --junit -h --help' ;;
	*) return ;;
	esac
	case $prev in
	-o|--output) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--junit) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--baseline) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W 'png svg' -- "$cur")); return ;;
	--seed|--set|--max-wall|--repeat|--tolerance|--metrics|--sweep|--seeds|--metric|-j|--jobs) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	run|check|topo|live) COMPREPLY=($(compgen -f -X '!*.@(yaml|yml)' -- "$cur") $(compgen -d -- "$cur")) ;;
	compare|plot) COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -o filenames -F _fabemu fabemu
